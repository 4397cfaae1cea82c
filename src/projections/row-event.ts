import type { ArtifactRow } from './artifact-reads.js';

/** The common fields of every event about a row: what it concerns and the move it makes. */
export function rowEventData(row: ArtifactRow, enters: string, own: Record<string, unknown> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    artifact_id: row.artifact_id,
    space: row.space,
    leaves: row.state,
    enters,
    trust_class: row.trust_class,
    content_type: row.content_type,
    ...own,
  };
  if (row.workarea !== null) data['workarea'] = row.workarea;
  return data;
}
