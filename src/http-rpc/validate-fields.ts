import type { z } from 'zod';
import { invalidParams } from '../gate-error.js';
import { isJsonObject } from '../domain/json-object.js';
import { MAX_REQUEST_DEPTH } from '../domain/request-depth.js';

/** Identity comes from the connection; these are refused on every verb (docs/protocol.md#invariants). */
const IDENTITY_FIELDS: Record<string, string> = {
  writer_identity: 'writer_identity is refused: identity is derived from the connection',
  deployment_id: 'deployment_id is refused: the deployment is this gate',
};

const pathName = (path: ReadonlyArray<PropertyKey>) => path.map(String).join('.');

/**
 * The first `null` in `value`, by path. Bounded by MAX_REQUEST_DEPTH: the doors refuse deeper
 * requests before this runs, and a caller that skips them (an in-process tool call, the
 * plugin tier's stdio) still meets a refusal here rather than the end of the stack.
 */
function findNull(value: unknown, path: string[]): string | null {
  if (value === null) return path.join('.');
  if (typeof value !== 'object' || value === undefined) return null;
  if (path.length >= MAX_REQUEST_DEPTH) {
    throw invalidParams(`params nest deeper than the limit of ${MAX_REQUEST_DEPTH} levels`, { limit: MAX_REQUEST_DEPTH });
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNull(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
  } else {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const found = findNull(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * C3 and the invariants for any strict schema (a member gate verb's params, a tool's
 * arguments, an organization gate verb's params): identity fields and the caller's refused
 * fields by name, then `null` anywhere by name (but in `nullable` fields at the top), then the
 * strict schema (an unlisted field by name).
 */
export function validateFields<P extends z.ZodType>(
  schema: P,
  refused: Record<string, string> | undefined,
  raw: unknown,
  nullable: readonly string[] = [],
): z.output<P> {
  if (raw === undefined) raw = {};
  if (!isJsonObject(raw)) {
    throw invalidParams('params must be an object');
  }
  const params = raw as Record<string, unknown>;
  for (const field of Object.keys(params)) {
    const why = IDENTITY_FIELDS[field] ?? refused?.[field];
    if (why !== undefined) throw invalidParams(why, { field });
  }
  const nullAt = findNull(
    nullable.length === 0 ? params : Object.fromEntries(Object.entries(params).filter(([k, v]) => !(v === null && nullable.includes(k)))),
    [],
  );
  if (nullAt !== null) {
    throw invalidParams(`null is refused for field ${nullAt}; omit the field instead`, { field: nullAt });
  }
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const field = [...issue.path.map(String), issue.keys[0]].join('.');
    throw invalidParams(`unlisted field: ${field}`, { field });
  }
  const field = pathName(issue.path);
  const given = issue.path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    params,
  );
  if (given === undefined && issue.code === 'invalid_type') {
    throw invalidParams(`missing field: ${field}`, { field });
  }
  throw invalidParams(field === '' ? issue.message : `field ${field}: ${issue.message}`, { field });
}
