import { declarationOf, isEventType } from './catalogue.js';

/**
 * Whether each appended event is held to its type's declaration before it is sealed: on when
 * GATE_CHECK_EVENTS is 1, as vitest.config.ts sets it for every test (and so for every gate a
 * test starts), off in service, where the compiler's check of each append is the one made.
 */
export const EVENTS_CHECKED = process.env['GATE_CHECK_EVENTS'] === '1';

/**
 * Holds one event's data, as it is signed (JSON: an absent field is absent, not undefined), to
 * its declaration: an undeclared type, a field missing, of another type or not declared is the
 * gate's own failure, and the write that made it fails.
 */
export function checkEvent(type: string, data: unknown): void {
  if (!isEventType(type)) throw new Error(`event type ${type} is not declared in src/journal/catalogue/`);
  const parsed = declarationOf(type).data.safeParse(JSON.parse(JSON.stringify(data)));
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 5).map((i) => {
    const keys = i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : '';
    return `${i.path.map(String).join('.') || '(root)'}: ${i.message}${keys}`;
  });
  throw new Error(`a ${type} event's data is outside its declaration in src/journal/catalogue/: ${issues.join('; ')}`);
}
