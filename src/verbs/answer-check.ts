import { z } from 'zod';
import { internalError } from '../gate-error.js';
import type { Verb } from './define-verb.js';

/**
 * Whether every answer is held to its verb's declared schema before it leaves the dispatcher:
 * on when GATE_CHECK_ANSWERS is 1, as vitest.config.ts sets it for every test (and so for every
 * gate a test starts), off in service, where an answer is not parsed twice.
 */
export const ANSWERS_CHECKED = process.env['GATE_CHECK_ANSWERS'] === '1';

const closedTwins = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with every open object closed: the declaration stays open for clients (a later
 * gate may send more), but the gate itself must declare every field it sends, so the check
 * refuses one it did not. Made once per schema; a lazy schema closes when first read.
 */
export function closed(schema: z.ZodType): z.ZodType {
  const known = closedTwins.get(schema);
  if (known !== undefined) return known;
  const twin = closeOnce(schema);
  closedTwins.set(schema, twin);
  return twin;
}

function closeOnce(schema: z.ZodType): z.ZodType {
  const def = (schema as z.ZodType & { _zod: { def: Record<string, any> } })._zod.def;
  switch (def['type']) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def['shape'] as Record<string, z.ZodType>).map(([k, v]) => [k, closed(v)]));
      const catchall = def['catchall'] as z.ZodType | undefined;
      return catchall === undefined ? z.strictObject(shape) : z.object(shape).catchall(closed(catchall));
    }
    case 'array':
      return z.array(closed(def['element']));
    case 'union':
      return z.union((def['options'] as z.ZodType[]).map(closed) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case 'optional':
      return closed(def['innerType']).optional();
    case 'nullable':
      return closed(def['innerType']).nullable();
    case 'record':
      return z.record(def['keyType'], closed(def['valueType']));
    case 'tuple':
      return z.tuple((def['items'] as z.ZodType[]).map(closed) as [z.ZodType, ...z.ZodType[]]);
    case 'lazy':
      return z.lazy(() => closed(def['getter']()));
    default:
      return schema;
  }
}

/**
 * Holds one answer to its verb's schema, as it leaves on the wire (JSON: an absent field is
 * absent, not undefined): a field of the wrong type, a missing one, or one the schema does not
 * declare is the gate's own failure, named with its path, never an answer a client mistypes.
 */
export function checkAnswer(verb: Verb, answer: unknown): void {
  const wire: unknown = answer === undefined ? undefined : JSON.parse(JSON.stringify(answer));
  const parsed = closed(verb.answer).safeParse(wire);
  if (parsed.success) return;
  throw internalError(`${verb.name} answered outside its answer schema: ${described(parsed.error.issues, [])}`);
}

/** The issues by path; a union's by its nearest alternative (the one with the fewest issues). */
function described(issues: readonly z.core.$ZodIssue[], at: PropertyKey[]): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const path = [...at, ...i.path];
      if (i.code === 'invalid_union' && i.errors.length > 0) {
        const nearest = [...i.errors].sort((a, b) => a.length - b.length)[0]!;
        return described(nearest, path);
      }
      const keys = i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : '';
      return `${path.map(String).join('.') || '(root)'}: ${i.message}${keys}`;
    })
    .join('; ');
}
