import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';
import type { Store } from '../store/store.js';

/**
 * unrelated: a checked row promoted at least stale_days ago that is still connected to
 * nothing: its derives_from is empty, no relation names it either way, and no row (in any
 * state) derives from it. A fresh row is given stale_days to be cited or related.
 */
export function unrelated(house: { readonly store: Store }, rows: readonly CheckedRow[], staleBefore: number): Finding {
  const candidates = rows.filter((r) => r.derives_from === '[]' && r.promoted_ts !== null && r.promoted_ts <= staleBefore);
  if (candidates.length === 0) return { flagged: [] };
  const connected = new Set(house.store.relations.connectedAmong(candidates.map((r) => r.artifact_id)));
  return { flagged: candidates.filter((r) => !connected.has(r.artifact_id)).map((r) => r.artifact_id) };
}
