import type { Caller } from './caller.js';
import type { JournalEvent } from '../forms/event.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from './access-part.js';

/**
 * What of a work area a caller below reviewer may see, one question at a time (gv.lineage
 * answers the same rule for a whole space at once). An area shows where the caller wrote
 * into it, or where it holds a promoted row in a space the caller may read. An identity
 * shows in an area when it is the caller or wrote a promoted row there: a writer of held
 * rows only is never named, or a completion or relation would tell that those rows exist.
 */
export function areaShown(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, space: string, workarea: string): boolean {
  if (house.access.visibility.seesEverything(caller)) return true;
  const reads = house.store.workareas;
  if (reads.part(space, workarea, caller.identity) !== undefined) return true;
  return house.access.capabilities.has(caller, space, 'read') && reads.hasPromotedRow(space, workarea);
}

export function identityShown(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, space: string, workarea: string, identity: string): boolean {
  if (house.access.visibility.seesEverything(caller) || identity === caller.identity) return true;
  return house.access.capabilities.has(caller, space, 'read') && house.store.workareas.hasPromotedRowBy(space, workarea, identity);
}

/** A declared relation shows where both its areas show and its declarer shows in its source. */
export function relationShown(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, space: string, source: string, target: string, by: string): boolean {
  return (
    areaShown(house, caller, space, source) &&
    areaShown(house, caller, space, target) &&
    identityShown(house, caller, space, source, by)
  );
}

/** docs/protocol.md#events rule 3 for work-area events: served where gv.lineage shows the part or the edge they concern. */
export function workareaEventShown(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, event: JournalEvent): boolean {
  const d = event.data;
  const [space, workarea] = [d['space'], d['workarea']];
  if (typeof space !== 'string' || typeof workarea !== 'string') return false;
  if (event.type === 'workarea-completed') {
    return areaShown(house, caller, space, workarea) && identityShown(house, caller, space, workarea, String(d['identity']));
  }
  return event.by !== null && relationShown(house, caller, space, workarea, String(d['target']), event.by);
}
