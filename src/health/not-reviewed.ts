import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';
import type { Store } from '../store/store.js';

/**
 * not_reviewed: a checked row promoted at least stale_days ago that no identity but its
 * writer has signed. The deployment's own events (no `by`, as an automatic promotion would
 * be) are not a review; stale_days is the time a reviewer is given to countersign.
 */
export function notReviewed(house: { readonly store: Store }, rows: readonly CheckedRow[], staleBefore: number): Finding {
  const candidates = rows.filter((r) => r.promoted_ts !== null && r.promoted_ts <= staleBefore);
  if (candidates.length === 0) return { flagged: [] };
  const signed = new Set(house.store.journalReads.signedByOthers(candidates.map((r) => r.artifact_id)));
  return { flagged: candidates.filter((r) => !signed.has(r.artifact_id)).map((r) => r.artifact_id) };
}
