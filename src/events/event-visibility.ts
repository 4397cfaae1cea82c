import type { Caller } from '../access/caller.js';
import type { Gate } from '../gate.js';
import { eventFromRow, type JournalRow } from '../forms/event.js';
import { workareaEventShown } from '../access/workarea-visibility.js';
import { groupEventShown } from '../access/group-visibility.js';
import { isServedType, isSpaceRegistryEvent } from './served-event.js';

/**
 * Spec 1 Events rule 3. From reviewer up, every served event. Below: every event of a row
 * the caller wrote, a row's events from its promotion on (in a space it may read), a work
 * area's events where its lineage shows them, a replacement group's events where every row
 * it names is readable, and space registry events. Events of no space are never served.
 */
export function eventVisible(gate: Gate, caller: Caller, row: JournalRow): boolean {
  if (!isServedType(row.type) || row.space === null) return false;
  if (gate.access.visibility.seesEverything(caller)) return true;
  if (isSpaceRegistryEvent(row.type)) return true;
  if (row.type.startsWith('workarea-')) return workareaEventShown(gate, caller, eventFromRow(row));
  if (row.type.startsWith('replacement-')) return groupEventShown(gate, caller, eventFromRow(row));
  if (row.artifact_id === null) return false;
  const artifact = gate.store.artifacts.byId(row.artifact_id);
  if (!artifact) return false;
  if (artifact.writer_identity === caller.identity) return true;
  return (
    artifact.promoted_seq !== null &&
    row.seq >= artifact.promoted_seq &&
    gate.access.capabilities.has(caller, artifact.space, 'read')
  );
}
