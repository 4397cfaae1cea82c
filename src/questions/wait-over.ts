import { questionStanding } from './question-state.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';

const SWEEP_MAX = 1000;

/**
 * Ends the questions routed to people whose wait has run out on the gate's clock, each with
 * a `question-wait-over` event `{from: with_people, to: ended}` the deployment signs. A
 * question answered meanwhile, or held again, is left alone; a crew's wait is issue 19's.
 * `gate serve` runs this every minute beside the review expiry. Returns how many ended.
 */
export async function questionWaitsOver(house: { readonly store: Store; readonly clock: Clock }): Promise<number> {
  const reads = house.store.questions;
  if (reads.waitOver('with_people', house.clock.now(), 1).length === 0) return 0;
  return house.store.writer.write(() => {
    const now = house.clock.now();
    let ended = 0;
    for (const routing of reads.waitOver('with_people', now, SWEEP_MAX)) {
      const row = house.store.artifacts.byId(routing.artifact_id);
      if (row === undefined || questionStanding(house, row, now).state !== 'with_people') continue;
      house.store.journal.append('question-wait-over', null, {
        artifact_id: row.artifact_id,
        space: row.space,
        workarea: row.workarea,
        from: 'with_people',
        to: 'ended',
      });
      ended += 1;
    }
    return ended;
  });
}
