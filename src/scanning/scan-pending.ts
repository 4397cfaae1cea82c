import type { ArtifactRow } from '../projections/artifact-reads.js';
import { GateError } from '../gate-error.js';
import { CURRENT_SCANNER, rescanRow } from './rescan.js';
import type { Store } from '../store/store.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';

/** Rows handed to the scan stage together: it batches them to the pool as it batches ingests. */
const PAGE = 64;
/** Rows of the artifacts view examined per query while looking for rows an older scanner saw. */
const LOOK_AHEAD = 1000;

export interface ScanPendingReport {
  /** Rows scanned. */
  examined: number;
  /** Of them, rows left in L0_RAW (a crash between an ingest and its scan, or an older build). */
  raw: number;
  /** Of them, rows in review whose last scan was made by another scanner than this gate's. */
  outdated: number;
  /** Scan (or record) events journaled: the result differed. */
  scanned: number;
  unchanged: number;
  /** Rows that entered L1B_FLAGGED. */
  flagged: number;
  /** Rows that could not be scanned, by reason (content_erased, archive, quarantine_full). */
  skipped: Record<string, number>;
  /** More rows were pending than this call took. */
  truncated: boolean;
  scanner: string;
}

/**
 * Rows the scanner still owes: those left in L0_RAW, then rows in review whose newest scan
 * names another scanner (an upgrade since). A row this process already found unchanged is
 * not asked again (gate.rescannedUnchanged; not a journal fact, since nothing changed).
 */
function* pendingRows(house: { readonly store: Store; readonly pipeline: PipelinePart }): Generator<{ row: ArtifactRow; raw: boolean }> {
  let after = 0;
  for (;;) {
    const rows = house.store.artifacts.rawAfter(after, LOOK_AHEAD);
    for (const row of rows) yield { row, raw: true };
    if (rows.length < LOOK_AHEAD) break;
    after = rows[rows.length - 1]!.rowid;
  }
  after = 0;
  for (;;) {
    const rows = house.store.artifacts.outdatedScans(after, CURRENT_SCANNER, LOOK_AHEAD);
    for (const row of rows) if (!house.pipeline.rescannedUnchanged.has(row.artifact_id)) yield { row, raw: false };
    if (rows.length < LOOK_AHEAD) break;
    after = rows[rows.length - 1]!.rowid;
  }
}

/**
 * gv.scan_pending, and the pass `gate serve` makes at start: scans at most `limit` pending
 * rows with the current scanner, `PAGE` at a time, until `stop()` says the gate is stopping.
 */
export async function scanPending(house: { readonly store: Store; readonly pipeline: PipelinePart }, limit: number, by: string | null, stop: () => boolean = () => false): Promise<ScanPendingReport> {
  const report: ScanPendingReport = { examined: 0, raw: 0, outdated: 0, scanned: 0, unchanged: 0, flagged: 0, skipped: {}, truncated: false, scanner: CURRENT_SCANNER };
  const rows = pendingRows(house);
  for (;;) {
    const page: Array<{ row: ArtifactRow; raw: boolean }> = [];
    while (page.length < Math.min(PAGE, limit - report.examined)) {
      const next = rows.next();
      if (next.done) break;
      page.push(next.value);
    }
    if (page.length === 0) break;
    const outcomes = await Promise.all(
      page.map(({ row }) =>
        rescanRow(house, row, by).catch((error: unknown) => {
          if (error instanceof GateError) return { skipped: String(error.data?.['reason'] ?? (error.code === -32006 ? 'quarantine_full' : 'refused')) };
          throw error;
        }),
      ),
    );
    page.forEach(({ row, raw }, i) => {
      const outcome = outcomes[i]!;
      report.examined += 1;
      if (raw) report.raw += 1;
      else report.outdated += 1;
      if ('skipped' in outcome) {
        report.skipped[outcome.skipped] = (report.skipped[outcome.skipped] ?? 0) + 1;
      } else if (outcome.changed) {
        report.scanned += 1;
        if (outcome.state === 'L1B_FLAGGED' && row.state !== 'L1B_FLAGGED') report.flagged += 1;
      } else {
        report.unchanged += 1;
        house.pipeline.rescannedUnchanged.add(row.artifact_id);
      }
    });
    if (report.examined >= limit || stop()) {
      report.truncated = !rows.next().done;
      break;
    }
  }
  return report;
}
