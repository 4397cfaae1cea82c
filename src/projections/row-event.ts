import type { ArtifactRow } from './artifact-reads.js';

/** The common fields of an event that moves a row (the catalogue's `rowMove`, src/journal/catalogue/fields.ts). */
export interface RowMove {
  artifact_id: string;
  space: string;
  leaves: string;
  enters: string;
  trust_class: string;
  content_type: string;
  workarea?: string;
}

/** The common fields of every event about a row: what it concerns and the move it makes, with the event's own fields. */
export function rowEventData<Own extends object = Record<never, never>, Enters extends string = string>(row: ArtifactRow, enters: Enters, own: Own = {} as Own): RowMove & { enters: Enters } & Own {
  return {
    artifact_id: row.artifact_id,
    space: row.space,
    leaves: row.state,
    enters,
    trust_class: row.trust_class,
    content_type: row.content_type,
    ...own,
    ...(row.workarea === null ? {} : { workarea: row.workarea }),
  };
}
