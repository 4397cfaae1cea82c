import type { ArtifactRow } from '../projections/artifact-reads.js';
import { lifecycle } from '../gate-error.js';
import { isRecordedClass } from '../domain/kinds.js';
import { HELD_ON_RESCAN, QUARANTINE_STATES, type ArtifactState } from '../domain/states.js';
import { sha256Hex } from '../forms/canonical-json.js';
import { rowEventData } from '../projections/row-event.js';
import { isFlagging, SEVERITY_RANK, type Finding, type ScanResult } from '../../workers/scan/finding.js';
import { isInBody, locationKey } from '../../workers/scan/finding-location.js';
import { scanRow, type ScannedAttachment } from '../../pipeline/row-scan.js';
import { scanFieldsOfRow } from './row-fields.js';
import { SCANNER_LABEL } from '../../workers/scan/scan-text.js';
import { UNSCANNED_ARCHIVE } from '../bundles/archive-findings.js';
import type { Store } from '../store/store.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';

/** What one scan of a row found, and whether it was journaled. */
export interface RescanOutcome {
  artifact_id: string;
  state: string;
  /** A new scan (or record) event was journaled: the result differs from the standing one. */
  changed: boolean;
  event_id?: string;
  scanner: string;
  findings_count: number;
  /** Findings this scan made that the standing scan did not (kind and severity; never the text). */
  added: Array<{ kind: string; severity: string }>;
  /** Standing findings this scanner did not find again: they stand until a person disposes of them. */
  not_found_again: number;
}

/** A finding that takes a promoted row away from its readers when a later scan makes it. */
const withdraws = (f: Finding) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK.high;

export interface StandingScan {
  findings: Finding[];
  scanner: string;
  seq: number;
}

/** The newest scan or record event of a row: the findings that stand on it, and who found them. */
export function standingScan(house: { readonly store: Store }, artifactId: string): StandingScan | null {
  const row = house.store.journalReads.newestScan(artifactId);
  if (row === undefined) return null;
  const data = (JSON.parse(row.body) as { data: { findings?: Finding[]; scanner?: string } }).data;
  return { findings: Array.isArray(data.findings) ? data.findings : [], scanner: data.scanner ?? '', seq: row.seq };
}

const keyOf = (f: Pick<Finding, 'kind' | 'severity' | 'start' | 'end' | 'location'>) => `${f.kind}|${f.severity}|${f.start}|${f.end}|${locationKey(f.location)}`;
/** The gate's own words about an archive (bundle.*) are not the scanner's: it never finds them again. */
const isScannerFinding = (f: Finding) => !f.kind.startsWith('bundle.');
/** The body's findings first, in their order, then each field's and attachment's. */
const byPosition = (a: Finding, b: Finding) =>
  locationKey(a.location).localeCompare(locationKey(b.location)) || a.start - b.start || a.end - b.end || a.kind.localeCompare(b.kind);

/** An archive left unscanned: its members were never checked beside it, so a person decides. */
const ARCHIVE_UNCHECKED: Finding = {
  kind: 'bundle.archive_unchecked',
  severity: 'high',
  detail: 'the archive was left unscanned and its members were not checked beside it',
  start: 0,
  end: 0,
  excerpt: '',
};

/** A fresh scan laid over the standing one: every standing finding kept, the new ones joined, and the masked body of them all. */
export interface MergedScan {
  findings: Finding[];
  added: Finding[];
  notFoundAgain: number;
  /** The masked body's hash (the content's own when nothing is masked). */
  maskedHash: string;
  /** The masked body's bytes, null when it is the content itself. */
  maskedBytes: Buffer | null;
}

/**
 * Joins a scan's result to the findings standing on the row (read inside the write): no
 * finding is cleared by a scan, only added.
 */
export function mergeScan(house: { readonly store: Store }, now: ArtifactRow, result: ScanResult, archive: boolean): MergedScan {
  const standing = standingScan(house, now.artifact_id)?.findings ?? [];
  const standingKeys = new Set(standing.map(keyOf));
  const freshKeys = new Set(result.findings.map(keyOf));
  const added = result.findings.filter((f) => !standingKeys.has(keyOf(f)));
  const findings = [...standing, ...added].sort(byPosition);
  // As at ingest: with nothing masked the masked body is the body itself, one stored copy for both.
  const maskedBytes = findings.length === 0 || archive || result.masked === null ? null : Buffer.from(result.masked, 'utf8');
  return {
    findings,
    added,
    notFoundAgain: standing.filter((f) => isScannerFinding(f) && !freshKeys.has(keyOf(f))).length,
    maskedHash: maskedBytes === null ? now.content_hash : `sha256:${sha256Hex(maskedBytes)}`,
    maskedBytes,
  };
}

/** The scan event's own fields for a merged scan, its masked body stored first when it is new (inside the write). */
export function scanEventFields(house: { readonly store: Store }, now: ArtifactRow, merged: MergedScan, scanner: string, rescan: boolean) {
  if (merged.maskedBytes !== null && merged.maskedHash !== now.content_hash) house.store.journal.putBlob(merged.maskedHash, merged.maskedBytes);
  return { findings_count: merged.findings.length, findings: merged.findings, masked_hash: merged.maskedHash, scanner, rescan };
}

/**
 * Everything of the row an agent reads scanned again by the current scanner: its body (its
 * standing body findings travelling with it, so their spans stay masked), its fields, and
 * every attachment, the envelope's and the evidence added since (with `adding`, evidence not
 * yet journaled).
 */
export async function scanRowAgain(
  house: { readonly store: Store; readonly pipeline: PipelinePart },
  row: ArtifactRow,
  adding: readonly ScannedAttachment[] = [],
): Promise<ScanResult> {
  const bytes = house.store.artifacts.bodyBytes(row.content_hash);
  if (bytes === null) throw lifecycle('the content of this row is erased: there is nothing to scan', 'content_erased');
  const held = house.store.attachments.ofRow(row.artifact_id).map((a) => ({ sha256: a.content_hash, media_type: a.media_type, size_bytes: a.size_bytes, source_uri: a.source_uri }));
  const standing = standingScan(house, row.artifact_id)?.findings.filter(isInBody) ?? null;
  return scanRow(house.pipeline, { bytes, contentType: row.content_type, fields: scanFieldsOfRow(row), attachments: [...held, ...adding], standing });
}

export interface RescanOptions {
  /**
   * Journal a `scan-checked` event (internal) when the result does not differ, so a pass over
   * many rows resumes from the journal after a restart without reading them again.
   */
  recordUnchanged?: boolean;
}

/**
 * Scans one row again with the current scanner. A scan event is journaled only when the
 * result differs: the first scan of a row left in L0_RAW, or a finding the standing scan
 * did not make. Findings are never cleared here: the new event carries the standing ones
 * and the new ones, and a row in review that gains a finding of medium severity or more
 * is held in L1B_FLAGGED; only a person's disposition clears a finding. A promoted (ACTIVE)
 * row that gains one of high severity or more leaves its readers for L1B_FLAGGED (reason
 * HELD_ON_RESCAN) until a person decides; any other decided or promoted row keeps its state
 * (its event records the finding).
 */
export async function rescanRow(
  house: { readonly store: Store; readonly pipeline: PipelinePart },
  row: ArtifactRow,
  by: string | null,
  options: RescanOptions = {},
): Promise<RescanOutcome> {
  const archive = row.content_type === 'skill_archive';
  if (archive && row.state !== 'L0_RAW') {
    throw lifecycle("an archive's own row is not scanned as text: its members are rows of their own, each scanned", 'archive');
  }
  const result = archive ? { ...UNSCANNED_ARCHIVE, findings: [ARCHIVE_UNCHECKED] } : await scanRowAgain(house, row);
  return house.store.writer.write(() => {
    // Read again inside the transaction: the row may have moved, or been scanned, while the worker ran.
    const now = house.store.artifacts.byId(row.artifact_id)!;
    const merged = mergeScan(house, now, result, archive);
    const outcome = {
      artifact_id: now.artifact_id,
      scanner: result.scanner,
      added: merged.added.map((f) => ({ kind: f.kind, severity: f.severity, ...(f.location === undefined ? {} : { location: f.location }) })),
      not_found_again: merged.notFoundAgain,
    };
    const firstScan = now.state === 'L0_RAW';
    if (!firstScan && merged.added.length === 0) {
      if (options.recordUnchanged === true) {
        house.store.journal.append('scan-checked', by, rowEventData(now, now.state, { scanner: result.scanner, findings_count: merged.findings.length }));
      }
      return { ...outcome, state: now.state, changed: false, findings_count: merged.findings.length };
    }
    const recorded = isRecordedClass(now.content_type) && (firstScan || now.state === 'RECORDED');
    const inReview = QUARANTINE_STATES.has(now.state as ArtifactState);
    const holds = (firstScan ? merged.findings : merged.added).some((f) => isFlagging(f.severity));
    const withdrawn = now.state === 'ACTIVE' && merged.added.some(withdraws);
    const enters = recorded ? 'RECORDED' : (inReview && holds) || withdrawn ? 'L1B_FLAGGED' : firstScan ? 'L1_SCANNED' : now.state;
    const fields = {
      ...scanEventFields(house, now, merged, result.scanner, !firstScan),
      // The journal says why a promoted row left its readers: the reason, and which findings took it.
      ...(withdrawn
        ? { reason: HELD_ON_RESCAN, withdrawn_by: merged.added.filter(withdraws).map(({ kind, severity, location }) => ({ kind, severity, ...(location === undefined ? {} : { location }) })) }
        : {}),
    };
    const event = house.store.journal.append(recorded ? 'record' : 'scan', by, rowEventData(now, enters, fields));
    return { ...outcome, state: enters, changed: true, event_id: event.event_id, findings_count: merged.findings.length };
  });
}

/** The label of the scanner this gate runs, as its scan events name it. */
export const CURRENT_SCANNER = SCANNER_LABEL;
