import type { ArtifactRow } from '../projections/artifact-reads.js';
import { ErrorCode, GateError } from '../gate-error.js';
import type { GateConfig } from '../config/keys.js';
import type { Log } from '../log.js';
import type { Store } from '../store/store.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';
import type { BackgroundRescan, PromotedRescanReading } from '../../pipeline/background-rescan.js';
import { CURRENT_SCANNER, rescanRow } from './rescan.js';

/** Rows handed to the scan stage together, at most: a page is small, so an ingest never waits behind many. */
const PAGE_MAX = 32;
/** How long the pass waits when the scan stage has claims waiting: ingest first. */
const BUSY_WAIT_MS = 50;
/** How long the pass waits, switched off (`0` a minute), before it reads the setting again. */
const OFF_WAIT_MS = 5_000;
/**
 * How long the pass rests after a walk over the promoted rows found nothing to scan. A row
 * promoted since, whose newest scan an older scanner made (it waited in review through the
 * upgrade and was found unchanged there), is found by the next walk.
 */
const IDLE_WAIT_MS = 5 * 60_000;

/** What the pass does next: nothing while switched off, wait while claims wait for the scanner, else a page. */
export type Move = { kind: 'off' } | { kind: 'yield' } | { kind: 'page'; size: number };

export function nextMove(perMinute: number, claimsWaiting: number): Move {
  if (perMinute === 0) return { kind: 'off' };
  // Claims waiting for the scanner go first: the pass never adds to a queue that holds ingests.
  if (claimsWaiting > 0) return { kind: 'yield' };
  // A page is a second's worth at the rate, at least one row and at most PAGE_MAX.
  return { kind: 'page', size: Math.min(PAGE_MAX, Math.max(1, Math.ceil(perMinute / 60))) };
}

/** How long to rest after a page of `rows` scanned in `elapsedMs`: a page of n rows takes at least n / perMinute of a minute. */
export function restAfter(rows: number, perMinute: number, elapsedMs: number): number {
  return Math.max(0, (rows * 60_000) / perMinute - elapsedMs);
}

type House = { readonly store: Store; readonly pipeline: PipelinePart; readonly config: GateConfig; readonly log: Log };

/**
 * Promoted rows scanned again in the background when the scanner changed: every ACTIVE row
 * whose newest scan (or `scan-checked`) names another scanner label than this build's is read
 * again, everything an agent reads of it (body, fields, attachments), at most
 * `scan.promoted_rescan_per_minute` rows a minute, a small page at a time and only while no
 * claim waits for the scan stage, so ingest always goes first. Each row's outcome is journaled
 * (a `scan` event when something was found, `scan-checked` when nothing was), so the pass
 * resumes from the journal after a restart and a row is never lost nor read twice for one
 * label. A row holding a new finding of high severity leaves its readers for L1B_FLAGGED until
 * a person decides (rescan.ts). Signed by the deployment.
 */
export class PromotedRescan implements BackgroundRescan {
  private running: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  /** Rows that could not be scanned (their bytes gone): not asked again before a restart. */
  private readonly unscannable = new Set<string>();
  private readonly counts = { examined: 0, unchanged: 0, changed: 0, held: 0, skipped: 0, walks: 0 };
  private walking = false;

  constructor(private readonly house: House) {}

  start(): void {
    this.running ??= this.loop().catch((error: unknown) => this.house.log.error('the background rescan of promoted rows stopped', error));
  }

  /** Stops after the page in hand is scanned and journaled. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
  }

  reading(): PromotedRescanReading {
    return { scanner: CURRENT_SCANNER, per_minute: this.perMinute(), walking: this.walking, ...this.counts };
  }

  private perMinute(): number {
    return this.house.config.scan.promoted_rescan_per_minute;
  }

  private async loop(): Promise<void> {
    let after = 0;
    let walk = { examined: 0, held: 0 };
    while (!this.stopping) {
      const perMinute = this.perMinute();
      const move = nextMove(perMinute, this.house.pipeline.scan.reading().queued);
      if (move.kind !== 'page') {
        if (move.kind === 'off') this.walking = false;
        await this.rest(move.kind === 'off' ? OFF_WAIT_MS : BUSY_WAIT_MS);
        continue;
      }
      const page = this.house.store.artifacts.outdatedPromoted(after, CURRENT_SCANNER, move.size);
      if (page.length === 0) {
        const scanned = walk.examined > 0;
        if (scanned) this.house.log.info('scanned the promoted rows an older scanner saw', { scanner: CURRENT_SCANNER, ...walk });
        this.counts.walks += 1;
        after = 0;
        walk = { examined: 0, held: 0 };
        this.walking = false;
        // A walk that scanned rows is followed by one that checks nothing was left behind; one that scanned none rests.
        if (!scanned) await this.rest(IDLE_WAIT_MS);
        continue;
      }
      this.walking = true;
      after = page.at(-1)!.rowid;
      const rows = page.filter((row) => !this.unscannable.has(row.artifact_id));
      const started = performance.now();
      const held = await Promise.all(rows.map((row) => this.scanOne(row)));
      walk.examined += rows.length;
      walk.held += held.filter(Boolean).length;
      const due = restAfter(rows.length, perMinute, performance.now() - started);
      if (due > 0) await this.rest(due);
    }
    this.walking = false;
  }

  /** Scans one row; answers whether it left its readers. */
  private async scanOne(row: ArtifactRow): Promise<boolean> {
    this.counts.examined += 1;
    try {
      const outcome = await rescanRow(this.house, row, null, { recordUnchanged: true });
      if (!outcome.changed) {
        this.counts.unchanged += 1;
        return false;
      }
      if (outcome.state === 'L1B_FLAGGED' && row.state === 'ACTIVE') {
        this.counts.held += 1;
        this.house.log.warn('a promoted row left its readers: a later scanner found in it a finding of high severity; a person decides', {
          artifact_id: row.artifact_id,
          space: row.space,
          scanner: outcome.scanner,
          kinds: outcome.added.map((f) => f.kind).join(','),
        });
        return true;
      }
      this.counts.changed += 1;
      return false;
    } catch (error) {
      this.counts.skipped += 1;
      // A full scan queue is met again next walk; a row whose bytes are gone never scans.
      if (error instanceof GateError && error.code !== ErrorCode.quarantineFull) this.unscannable.add(row.artifact_id);
      else if (!(error instanceof GateError)) this.house.log.error('scanning a promoted row again failed', error);
      return false;
    }
  }

  private rest(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
