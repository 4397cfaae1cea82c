import { lifecycle } from '../../gate-error.js';
import { PART_COMPLETING_EVENTS } from '../../projections/workareas.js';
import type { Store } from '../../store/store.js';
import type { House } from '../house.js';

/**
 * Whether a part is complete, kept until a part is completed (or a write rolled back): every
 * ingest asks twice (before its scan and again inside its write), and a part that does not
 * exist yet takes writes as an open one does.
 */
const keptByStore = new WeakMap<Store, (key: string) => boolean>();

function partComplete(house: Pick<House, 'store'>, space: string, workarea: string, identity: string): boolean {
  let kept = keptByStore.get(house.store);
  if (kept === undefined) {
    const reads = house.store.workareas;
    kept = house.store.journal.viewChanges.memoByKey(PART_COMPLETING_EVENTS, (key: string) => {
      const [s, w, i] = JSON.parse(key) as [string, string, string];
      return (reads.part(s, w, i)?.completed_seq ?? null) !== null;
    });
    keptByStore.set(house.store, kept);
  }
  return kept(JSON.stringify([space, workarea, identity]));
}

/** A completed part takes no more writes from its identity (docs/protocol.md#states: no reopen). */
export function refuseCompletedPart(house: Pick<House, 'store'>, identity: string, space: string, workarea: string): void {
  if (!partComplete(house, space, workarea, identity)) return;
  throw lifecycle(`your part of work area ${workarea} in space ${space} is complete; it takes no more writes`, 'work_complete');
}
