import type { Caller } from './caller.js';
import type { Gate } from '../gate.js';

/**
 * C6 as SQL: the WHERE clause selecting the rows a caller may see. From reviewer up,
 * everything; below, its own rows and promoted rows of spaces it may read.
 */
export function visibleRowsClause(gate: Gate, caller: Caller): { sql: string; args: unknown[] } {
  if (gate.access.visibility.seesEverything(caller)) return { sql: '1', args: [] };
  const readable = gate.store.spaceNames().filter((s) => gate.access.capabilities.has(caller, s, 'read'));
  const marks = readable.map(() => '?').join(',');
  return {
    sql: `(writer_identity = ? OR (state IN ('ACTIVE', 'SUPERSEDED')${readable.length ? ` AND space IN (${marks})` : ' AND 0'}))`,
    args: [caller.identity, ...readable],
  };
}
