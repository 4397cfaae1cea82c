import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';

/** gv.health looks at this many promoted rows, the newest promotions first (docs/protocol.md#gvhealth). */
export const HEALTH_ROWS_CHECKED = 2000;

export interface CheckedRow extends ArtifactRow {
  /** The exact body (a reviewer's check reads what was written, not its masked copy). */
  body: Buffer | null;
}

export interface CheckedRows {
  rows: CheckedRow[];
  /** More promoted rows exist in the spaces than were checked. */
  truncated: boolean;
}

/**
 * The newest promoted rows of the spaces, by promotion order, with their bodies. The order
 * is found on row ids first and bodies are read for the chosen rows only: sorting whole
 * rows would read the body of every promoted row in the store.
 */
export function checkedRows(house: { readonly store: Store }, spaces: readonly string[]): CheckedRows {
  if (spaces.length === 0) return { rows: [], truncated: false };
  const newest = house.store.artifacts.newestPromotedRowids(spaces, HEALTH_ROWS_CHECKED + 1);
  const chosen = newest.slice(0, HEALTH_ROWS_CHECKED);
  const byRowid = new Map(house.store.artifacts.withBodies(chosen).map((r) => [r.rowid, r]));
  return { rows: chosen.map((rowid) => byRowid.get(rowid)!), truncated: newest.length > HEALTH_ROWS_CHECKED };
}
