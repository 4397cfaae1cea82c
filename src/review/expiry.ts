import type { Gate } from '../gate.js';
import { rowEventData } from '../projections/row-event.js';
import { EXPIRING_STATES } from './review-board.js';

const SWEEP_MAX = 1000;

/**
 * Rows whose human-review time-to-live has ended, away time not counted, are expired to
 * REJECTED with the deployment signing. Returns how many were expired.
 */
export async function expireOverdue(gate: Gate): Promise<number> {
  const now = gate.clock.now();
  const ttl = gate.review.board.settings.ttlMs;
  const states = [...EXPIRING_STATES];
  // Away time only lengthens a deadline, so rows waiting longer than the time-to-live are the candidates.
  const candidates = gate.store.reviews.waitingSince(states, now - ttl, SWEEP_MAX);
  const due = candidates.filter((c) => c.review_since + ttl + gate.review.board.away.awayBetween(c.review_since, now) <= now);
  if (due.length === 0) return 0;
  return gate.store.writer.write(() => {
    let expired = 0;
    for (const c of due) {
      const row = gate.store.artifacts.byId(c.artifact_id)!;
      if (!EXPIRING_STATES.has(row.state)) continue;
      gate.store.journal.append('expire', null, rowEventData(row, 'REJECTED', { reason: 'expired', signer_class: 'deployment' }));
      expired += 1;
    }
    return expired;
  });
}
