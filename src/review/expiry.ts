import { rowEventData } from '../projections/row-event.js';
import { EXPIRING_STATES } from './review-board.js';
import type { Store } from '../store/store.js';
import type { ReviewPart } from './review-part.js';
import type { Clock } from '../clock.js';

const SWEEP_MAX = 1000;

/**
 * Rows whose human-review time-to-live has ended, away time not counted, are expired to
 * REJECTED with the deployment signing. Returns how many were expired.
 */
export async function expireOverdue(house: { readonly store: Store; readonly review: ReviewPart; readonly clock: Clock }): Promise<number> {
  const now = house.clock.now();
  const ttl = house.review.board.settings.ttlMs;
  const states = [...EXPIRING_STATES];
  // Away time only lengthens a deadline, so rows waiting longer than the time-to-live are the candidates.
  const candidates = house.store.reviews.waitingSince(states, now - ttl, SWEEP_MAX);
  const due = candidates.filter((c) => c.review_since + ttl + house.review.board.away.awayBetween(c.review_since, now) <= now);
  if (due.length === 0) return 0;
  return house.store.writer.write(() => {
    let expired = 0;
    for (const c of due) {
      const row = house.store.artifacts.byId(c.artifact_id)!;
      if (!EXPIRING_STATES.has(row.state)) continue;
      house.store.journal.append('expire', null, rowEventData(row, 'REJECTED', { reason: 'expired', signer_class: 'deployment' }));
      expired += 1;
    }
    return expired;
  });
}
