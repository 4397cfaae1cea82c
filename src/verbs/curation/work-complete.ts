import type { Gate } from '../../gate.js';
import { lifecycle } from '../../gate-error.js';
import { WorkareaReads } from '../../projections/workarea-reads.js';
import { PART_COMPLETING_EVENTS } from '../../projections/workareas.js';
import type { Store } from '../../store/store.js';

/**
 * Whether a part is complete, kept until a part is completed (or a write rolled back): every
 * ingest asks twice (before its scan and again inside its write), and a part that does not
 * exist yet takes writes as an open one does.
 */
const keptByStore = new WeakMap<Store, (key: string) => boolean>();

function partComplete(gate: Gate, space: string, workarea: string, identity: string): boolean {
  let kept = keptByStore.get(gate.store);
  if (kept === undefined) {
    const reads = gate.store.workareas;
    kept = gate.store.journal.viewChanges.memoByKey(PART_COMPLETING_EVENTS, (key: string) => {
      const [s, w, i] = JSON.parse(key) as [string, string, string];
      return (reads.part(s, w, i)?.completed_seq ?? null) !== null;
    });
    keptByStore.set(gate.store, kept);
  }
  return kept(JSON.stringify([space, workarea, identity]));
}

/** A completed part takes no more writes from its identity (spec 1 States: no reopen). */
export function refuseCompletedPart(gate: Gate, identity: string, space: string, workarea: string): void {
  if (!partComplete(gate, space, workarea, identity)) return;
  throw lifecycle(`your part of work area ${workarea} in space ${space} is complete; it takes no more writes`, 'work_complete');
}
