/**
 * The pipeline's background rescan of promoted rows, as the rest of the house sees it: started
 * and stopped by `gate serve`, read by gv.queues. Its work is src/scanning/promoted-rescan.ts.
 */

/** What the pass has done since the gate started, for gv.queues. */
export interface PromotedRescanReading {
  /** The scanner label rows are brought to. */
  scanner: string;
  /** `scan.promoted_rescan_per_minute` as the pass reads it now (0: switched off). */
  per_minute: number;
  /** Whether a walk over the promoted rows is under way (false: resting, off or stopped). */
  walking: boolean;
  /** Rows scanned, by outcome: nothing new (a `scan-checked` event), new findings kept, held (left their readers), not scanned. */
  examined: number;
  unchanged: number;
  changed: number;
  held: number;
  skipped: number;
  /** Walks over the promoted rows completed (one that found nothing to scan counts too). */
  walks: number;
}

/** Promoted rows an older scanner saw, scanned again in the background. */
export interface BackgroundRescan {
  start(): void;
  /** Stops after the page in hand is scanned and journaled. */
  stop(): Promise<void>;
  reading(): PromotedRescanReading;
}
