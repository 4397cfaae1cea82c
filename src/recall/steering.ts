import type Database from 'better-sqlite3';
import { producerOf, type ArtifactRow } from '../projections/artifact-reads.js';
import type { ArtifactReads } from '../projections/artifact-reads.js';
import { markedWith, type FindingMark } from '../projections/finding-marks.js';
import type { HideFilter } from './served-filter.js';

export interface Producer {
  name: string;
  kind: string;
}

export interface SteeringQuery {
  space: string;
  workarea: string;
  producer?: Producer;
  k: number;
  includeProvisional: boolean;
  hides: HideFilter;
}

/** The area itself first, then each ancestor up to the top segment: the places steering is in force from. */
export function placesAbove(workarea: string): string[] {
  const segments = workarea.split('/');
  return segments.map((_, i) => segments.slice(0, segments.length - i).join('/'));
}

interface AddressedTo {
  names?: string[];
  kinds?: string[];
}

export interface SteeringItem {
  artifact_id: string;
  body: string | null;
  space: string;
  workarea: string | null;
  distance: number;
  producer: { name: string; kind: string | null } | null;
  writer: { identity: string; kind: string };
  addressed_to: AddressedTo | null;
  promoted_at: number | null;
  provisional: boolean;
  /** What the scanner found in it, kinds and severities: present only when it found something (a person approved it over them). */
  scanner_findings?: FindingMark[];
}

/** Unaddressed rows direct everyone; an addressed row directs the producers it names by name or kind. */
function addressedTo(row: ArtifactRow, producer: Producer): boolean {
  if (row.addressed_to === null) return true;
  const to = JSON.parse(row.addressed_to) as AddressedTo;
  return (to.names ?? []).includes(producer.name) || (to.kinds ?? []).includes(producer.kind);
}

/**
 * The steering in force at a work area: promoted steering rows written at the area or any
 * ancestor (a steering row directs its area and everything below). Nearest place first,
 * newest promotion first within a place; never a ranked hit.
 */
export class SteeringWalk {
  private readonly rowsAt: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly artifacts: ArtifactReads,
  ) {
    this.rowsAt = db.prepare(
      `SELECT rowid FROM artifacts WHERE kind = 'steering' AND space = ? AND workarea = ? AND state = 'ACTIVE'
         AND erased_seq IS NULL ORDER BY promoted_seq DESC`,
    );
  }

  inForce(q: SteeringQuery): { steering: SteeringItem[]; steering_omitted: number } {
    const shown: SteeringItem[] = [];
    let omitted = 0;
    placesAbove(q.workarea).forEach((place, distance) => {
      for (const { rowid } of this.rowsAt.all(q.space, place) as { rowid: number }[]) {
        const row = this.artifacts.byRowid(rowid)!;
        if (!q.includeProvisional && row.provisional === 1) continue;
        if (q.producer !== undefined && !addressedTo(row, q.producer)) continue;
        if (q.hides.verdict(row.artifact_id) !== 'shown') continue;
        if (shown.length >= q.k) {
          omitted++;
          continue;
        }
        shown.push({
          artifact_id: row.artifact_id,
          body: this.artifacts.body(row.content_hash),
          space: row.space,
          workarea: row.workarea,
          distance,
          producer: producerOf(row),
          writer: { identity: row.writer_identity, kind: row.writer_kind },
          addressed_to: row.addressed_to === null ? null : (JSON.parse(row.addressed_to) as AddressedTo),
          promoted_at: row.promoted_ts,
          provisional: row.provisional === 1,
          ...markedWith(this.artifacts.findingMarks(row)),
        });
      }
    });
    return { steering: shown, steering_omitted: omitted };
  }
}
