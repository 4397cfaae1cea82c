import type { ArtifactRow } from '../projections/artifact-reads.js';
import { lifecycle } from '../gate-error.js';
import { isRecordedClass } from '../domain/kinds.js';
import { QUARANTINE_STATES, type ArtifactState } from '../domain/states.js';
import { sha256Hex } from '../forms/canonical-json.js';
import { rowEventData } from '../projections/row-event.js';
import { isFlagging, type Finding } from '../../workers/scan/finding.js';
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

const keyOf = (f: Pick<Finding, 'kind' | 'severity' | 'start' | 'end'>) => `${f.kind}|${f.severity}|${f.start}|${f.end}`;
/** The gate's own words about an archive (bundle.*) are not the scanner's: it never finds them again. */
const isScannerFinding = (f: Finding) => !f.kind.startsWith('bundle.');
const byPosition = (a: Finding, b: Finding) => a.start - b.start || a.end - b.end || a.kind.localeCompare(b.kind);

/** An archive left unscanned: its members were never checked beside it, so a person decides. */
const ARCHIVE_UNCHECKED: Finding = {
  kind: 'bundle.archive_unchecked',
  severity: 'high',
  detail: 'the archive was left unscanned and its members were not checked beside it',
  start: 0,
  end: 0,
  excerpt: '',
};

/**
 * Scans one row again with the current scanner. A scan event is journaled only when the
 * result differs: the first scan of a row left in L0_RAW, or a finding the standing scan
 * did not make. Findings are never cleared here: the new event carries the standing ones
 * and the new ones, and a row in review that gains a finding of medium severity or more
 * is held in L1B_FLAGGED; only a person's disposition clears a finding. A decided or
 * promoted row keeps its state (a scan is not a demotion): its event records the finding.
 */
export async function rescanRow(house: { readonly store: Store; readonly pipeline: PipelinePart }, row: ArtifactRow, by: string | null): Promise<RescanOutcome> {
  const archive = row.content_type === 'skill_archive';
  if (archive && row.state !== 'L0_RAW') {
    throw lifecycle("an archive's own row is not scanned as text: its members are rows of their own, each scanned", 'archive');
  }
  const bytes = house.store.artifacts.bodyBytes(row.content_hash);
  if (bytes === null) throw lifecycle('the content of this row is erased: there is nothing to scan', 'content_erased');
  const before = standingScan(house, row.artifact_id);
  const result = archive ? { ...UNSCANNED_ARCHIVE, findings: [ARCHIVE_UNCHECKED] } : await house.pipeline.scan.scan(bytes, row.content_type, before?.findings ?? null);
  return house.store.writer.write(() => {
    // Read again inside the transaction: the row may have moved, or been scanned, while the worker ran.
    const now = house.store.artifacts.byId(row.artifact_id)!;
    const standing = standingScan(house, row.artifact_id)?.findings ?? [];
    const standingKeys = new Set(standing.map(keyOf));
    const freshKeys = new Set(result.findings.map(keyOf));
    const added = result.findings.filter((f) => !standingKeys.has(keyOf(f)));
    const outcome = {
      artifact_id: now.artifact_id,
      scanner: result.scanner,
      added: added.map((f) => ({ kind: f.kind, severity: f.severity })),
      not_found_again: standing.filter((f) => isScannerFinding(f) && !freshKeys.has(keyOf(f))).length,
    };
    const firstScan = now.state === 'L0_RAW';
    if (!firstScan && added.length === 0) {
      return { ...outcome, state: now.state, changed: false, findings_count: standing.length };
    }
    const findings = [...standing, ...added].sort(byPosition);
    const recorded = isRecordedClass(now.content_type) && (firstScan || now.state === 'RECORDED');
    const inReview = QUARANTINE_STATES.has(now.state as ArtifactState);
    const holds = (firstScan ? findings : added).some((f) => isFlagging(f.severity));
    const enters = recorded ? 'RECORDED' : inReview && holds ? 'L1B_FLAGGED' : firstScan ? 'L1_SCANNED' : now.state;
    // As at ingest: with no finding the masked body is the body itself, one stored copy for both.
    const maskedBytes = findings.length === 0 || archive ? null : Buffer.from(result.masked, 'utf8');
    const maskedHash = maskedBytes === null ? now.content_hash : `sha256:${sha256Hex(maskedBytes)}`;
    if (maskedBytes !== null && maskedHash !== now.content_hash) house.store.journal.putBlob(maskedHash, maskedBytes);
    const event = house.store.journal.append(
      recorded ? 'record' : 'scan',
      by,
      rowEventData(now, enters, { findings_count: findings.length, findings, masked_hash: maskedHash, scanner: result.scanner, rescan: !firstScan }),
    );
    return { ...outcome, state: enters, changed: true, event_id: event.event_id, findings_count: findings.length };
  });
}

/** The label of the scanner this gate runs, as its scan events name it. */
export const CURRENT_SCANNER = SCANNER_LABEL;
