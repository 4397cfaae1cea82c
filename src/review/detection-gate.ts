import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { QueueReading } from '../../pipeline/queue-reading.js';
import type { WaitsFor } from './blockers.js';
import type { ReviewMode } from './quorum.js';

/** How the detector's last request failed, since when it has been failing, and how many rows wait on it. */
export interface DetectorFailing {
  failure: string;
  detail: string;
  since: number;
}

/**
 * The model-backed injection detector as the house sees it (src/review/detection.ts
 * implements it): what a row waits for while it has no verdict, and whether the detector is
 * failing, for gv.ping's `degraded`.
 */
export interface DetectionPart {
  /** The detector's name in its verdicts: `tei:` and the configured model, or the url. */
  readonly detector: string;
  /** Why the row may not leave quarantine yet for want of the detector's verdict, or null. */
  waitOf(row: Pick<ArtifactRow, 'artifact_id' | 'content_hash'>, mode: ReviewMode): WaitsFor | null;
  /** The failure of the detector's last answer while no answer has come since; null while it answers. */
  readonly failing: DetectorFailing | null;
  /** Rows owed a verdict: waiting, in the stage, or waiting for a retry. */
  readonly owed: number;
  /** gv.queues: the detect stage's texts and rows. */
  reading(): QueueReading;
}
