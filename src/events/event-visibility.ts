import type { Caller } from '../access/caller.js';
import { eventFromRow, type JournalRow } from '../forms/event.js';
import { workareaEventShown } from '../access/workarea-visibility.js';
import { groupEventShown } from '../access/group-visibility.js';
import { isServedType, isSpaceRegistryEvent, servedObjectOf } from './served-event.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';

/**
 * docs/protocol.md#events rule 3. From reviewer up, every served event. Below: every event of a row
 * the caller wrote, a row's events from its promotion on (in a space it may read), a work
 * area's events where its lineage shows them, a replacement group's events where every row
 * it names is readable, and space registry events. Events of no space are never served.
 */
export function eventVisible(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, row: JournalRow): boolean {
  if (!isServedType(row.type) || row.space === null) return false;
  if (house.access.visibility.seesEverything(caller)) return true;
  if (isSpaceRegistryEvent(row.type)) return true;
  const about = servedObjectOf(row.type);
  if (about === 'workarea') return workareaEventShown(house, caller, eventFromRow(row));
  if (about === 'group') return groupEventShown(house, caller, eventFromRow(row));
  if (row.artifact_id === null) return false;
  const artifact = house.store.artifacts.byId(row.artifact_id);
  if (!artifact) return false;
  if (artifact.writer_identity === caller.identity) return true;
  return (
    artifact.promoted_seq !== null &&
    row.seq >= artifact.promoted_seq &&
    house.access.capabilities.has(caller, artifact.space, 'read')
  );
}
