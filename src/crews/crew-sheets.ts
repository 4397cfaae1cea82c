import { CREW_SHEET_KIND, crewSheetOf, type CrewSheet } from '../domain/crew-sheet.js';
import type { ArtifactReads, ArtifactRow } from '../projections/artifact-reads.js';

export interface SheetRow {
  row: ArtifactRow;
  sheet: CrewSheet;
}

/**
 * Crew sheets as rows: a prompt_template whose body is `crew_sheet/1`. A space is a crew
 * while it has a served (ACTIVE) sheet; the newest promoted one is the space's sheet.
 */
export class CrewSheets {
  constructor(private readonly artifacts: ArtifactReads) {}

  /** The sheet a row holds, or null when the row is no crew sheet (or its content was erased). */
  sheetOf(row: ArtifactRow): CrewSheet | null {
    if (row.kind !== CREW_SHEET_KIND) return null;
    return crewSheetOf(row.kind, this.artifacts.text(row.content_hash));
  }

  /** The space's served sheet: its newest ACTIVE crew sheet, or null when the space is no crew. */
  servedSheet(space: string): SheetRow | null {
    for (const row of this.artifacts.activeCrewSheets(space)) {
      const sheet = this.sheetOf(row);
      if (sheet !== null) return { row, sheet };
    }
    return null;
  }

  /** The crew that answers questions asked in `space`: its sheet's `answering`, or the space itself when it is a crew. */
  answeringCrew(space: string): string | null {
    const own = this.servedSheet(space);
    if (own === null) return null;
    return own.sheet.answering ?? space;
  }
}
