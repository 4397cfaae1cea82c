import type { Caller } from './caller.js';
import type { Gate } from '../gate.js';
import type { JournalEvent } from '../forms/event.js';
import { WorkareaReads } from '../projections/workarea-reads.js';

/**
 * What of a work area a caller below reviewer may see, one question at a time (gv.lineage
 * answers the same rule for a whole space at once). An area shows where the caller wrote
 * into it, or where it holds a promoted row in a space the caller may read. An identity
 * shows in an area when it is the caller or wrote a promoted row there: a writer of held
 * rows only is never named, or a completion or relation would tell that those rows exist.
 */
export function areaShown(gate: Gate, caller: Caller, space: string, workarea: string): boolean {
  if (gate.access.visibility.seesEverything(caller)) return true;
  const reads = gate.store.workareas;
  if (reads.part(space, workarea, caller.identity) !== undefined) return true;
  return gate.access.capabilities.has(caller, space, 'read') && reads.hasPromotedRow(space, workarea);
}

export function identityShown(gate: Gate, caller: Caller, space: string, workarea: string, identity: string): boolean {
  if (gate.access.visibility.seesEverything(caller) || identity === caller.identity) return true;
  return gate.access.capabilities.has(caller, space, 'read') && gate.store.workareas.hasPromotedRowBy(space, workarea, identity);
}

/** A declared relation shows where both its areas show and its declarer shows in its source. */
export function relationShown(gate: Gate, caller: Caller, space: string, source: string, target: string, by: string): boolean {
  return (
    areaShown(gate, caller, space, source) &&
    areaShown(gate, caller, space, target) &&
    identityShown(gate, caller, space, source, by)
  );
}

/** Spec 1 Events rule 3 for work-area events: served where gv.lineage shows the part or the edge they concern. */
export function workareaEventShown(gate: Gate, caller: Caller, event: JournalEvent): boolean {
  const d = event.data;
  const [space, workarea] = [d['space'], d['workarea']];
  if (typeof space !== 'string' || typeof workarea !== 'string') return false;
  if (event.type === 'workarea-completed') {
    return areaShown(gate, caller, space, workarea) && identityShown(gate, caller, space, workarea, String(d['identity']));
  }
  return event.by !== null && relationShown(gate, caller, space, workarea, String(d['target']), event.by);
}
