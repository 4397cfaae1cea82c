import type { Caller } from './caller.js';
import type { JournalEvent } from '../forms/event.js';
import { namedRows, type Group } from '../projections/replacement-group-reads.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from './access-part.js';

/**
 * docs/protocol.md#events rule 3, used for every answer about a group: below reviewer a group exists
 * for a caller only when the caller may read every row it names, so a group never reveals
 * another identity's held row (nor, through its id, that such a row is being replaced).
 */
export function groupVisible(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, group: Group): boolean {
  if (house.access.visibility.seesEverything(caller)) return true;
  return namedRows(group).every((id) => {
    const row = house.store.artifacts.byId(id);
    return row !== undefined && house.access.visibility.canRead(caller, row);
  });
}

/**
 * A group event is served where its group is visible. A prepare also moves a row, so the
 * row's writer sees it as every event of its own row; the event names no other row.
 */
export function groupEventShown(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, event: JournalEvent): boolean {
  const d = event.data;
  if (event.type === 'replacement-prepared' && typeof d['artifact_id'] === 'string') {
    if (house.store.artifacts.byId(d['artifact_id'])?.writer_identity === caller.identity) return true;
  }
  const group = typeof d['group_id'] === 'string' ? house.store.replacementGroups.byId(d['group_id']) : undefined;
  return group !== undefined && groupVisible(house, caller, group);
}
