import { eventFromRow } from '../../forms/event.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';

/** The ingest fields that make a row a member of the row it derives from: a bundle's file, a map's file. */
const PATH_FIELDS = ['bundle_path', 'map_path'] as const;

/**
 * The member rows of a bundle archive or a project map, as gv.node's `members` serves
 * them: each file retained from it, by path, with only the rows the caller may read
 * (C6). Other rows have no members. The path lives in the member's ingest event, the one
 * place it is recorded.
 */
export function membersOf(house: Pick<House, 'store' | 'access'>, caller: Caller, row: ArtifactRow) {
  if (row.content_type !== 'skill_archive' && row.content_type !== 'project_map') return [];
  const members: Array<{ path: string; artifact_id: string; content_type: string; state: string; size_bytes: number }> = [];
  for (const id of house.store.relations.derivedFrom(row.artifact_id)) {
    const member = house.store.artifacts.byId(id);
    if (member === undefined || !house.access.visibility.canRead(caller, member)) continue;
    const journalRow = house.store.journalReads.firstIngestOf(id);
    if (journalRow === undefined) continue;
    const data = eventFromRow(journalRow).data;
    const path = PATH_FIELDS.map((f) => data[f]).find((v): v is string => typeof v === 'string');
    if (path === undefined) continue;
    members.push({ path, artifact_id: id, content_type: member.content_type, state: member.state, size_bytes: member.size_bytes });
  }
  return members.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.artifact_id < b.artifact_id ? -1 : 1));
}
