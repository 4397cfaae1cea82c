import type { Gate } from '../gate.js';
import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';

/** Journal events that sign a row toward serving it: a promotion, a person's signature, a group's preparation. */
const SIGNING_EVENTS = ['promote', 'manual-sign', 'ratify', 'replacement-prepared'] as const;

/**
 * not_reviewed: a checked row promoted at least stale_days ago that no identity but its
 * writer has signed. The deployment's own events (no `by`, as an automatic promotion would
 * be) are not a review; stale_days is the time a reviewer is given to countersign.
 */
export function notReviewed(gate: Gate, rows: readonly CheckedRow[], staleBefore: number): Finding {
  const candidates = rows.filter((r) => r.promoted_ts !== null && r.promoted_ts <= staleBefore);
  if (candidates.length === 0) return { flagged: [] };
  const signed = new Set(
    (gate.db
      .prepare(
        `SELECT DISTINCT j.artifact_id AS id FROM journal j JOIN artifacts a ON a.artifact_id = j.artifact_id
         WHERE j.artifact_id IN (SELECT value FROM json_each(?)) AND j.type IN (${SIGNING_EVENTS.map(() => '?').join(',')})
         AND j.artifact_id IS NOT NULL AND j.by IS NOT NULL AND j.by <> a.writer_identity`,
      )
      .all(JSON.stringify(candidates.map((r) => r.artifact_id)), ...SIGNING_EVENTS) as { id: string }[]).map((r) => r.id),
  );
  return { flagged: candidates.filter((r) => !signed.has(r.artifact_id)).map((r) => r.artifact_id) };
}
