import type { Caller } from './caller.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from './access-part.js';

/**
 * C6 as SQL: the WHERE clause selecting the rows a caller may see. From reviewer up,
 * everything; below, its own rows and promoted rows of spaces it may read.
 */
export function visibleRowsClause(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller): { sql: string; args: unknown[] } {
  if (house.access.visibility.seesEverything(caller)) return { sql: '1', args: [] };
  const readable = house.store.spaceNames().filter((s) => house.access.capabilities.has(caller, s, 'read'));
  const marks = readable.map(() => '?').join(',');
  return {
    sql: `(writer_identity = ? OR (state IN ('ACTIVE', 'SUPERSEDED')${readable.length ? ` AND space IN (${marks})` : ' AND 0'}))`,
    args: [caller.identity, ...readable],
  };
}
