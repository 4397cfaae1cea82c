import { eventFromRow } from '../../forms/event.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';

/**
 * Why a REJECTED row was turned away, as gv.node's `refusal` serves it, or null for any
 * other state. Closed words only (the event type, a reject's category, the signer class):
 * a reviewer's or author's own words stay in the journal, as in a served event. The row a
 * rejection favoured is named only when the caller may read it (rule U).
 */
export function refusalOf(house: Pick<House, 'store' | 'access'>, caller: Caller, row: ArtifactRow) {
  if (row.state !== 'REJECTED') return null;
  const rows = house.store.journalReads.eventsOfNewestFirst(row.artifact_id);
  for (const journalRow of rows) {
    const event = eventFromRow(journalRow);
    const d = event.data;
    if (d['enters'] !== 'REJECTED') continue;
    const favoured = typeof d['in_favour_of'] === 'string' ? house.store.artifacts.byId(d['in_favour_of']) : undefined;
    return {
      type: event.type,
      category: typeof d['category'] === 'string' ? d['category'] : null,
      signer_class: typeof d['signer_class'] === 'string' ? d['signer_class'] : null,
      ...(favoured !== undefined && house.access.visibility.canRead(caller, favoured) ? { in_favour_of: favoured.artifact_id } : {}),
      event_id: event.event_id,
      ts: event.ts,
    };
  }
  return null;
}
