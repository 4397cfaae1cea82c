import type { Caller } from '../../access/caller.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import type { EventData, JournalEventOf } from '../../journal/catalogue/catalogue.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { Finding, ScanResult } from '../../../workers/scan/finding.js';
import type { House } from '../house.js';

/**
 * Artifact id: sha256 of {content_hash, space, writer, deployment} plus whatever else makes
 * this row distinct. A row whose content was erased keeps its id and its history, so the
 * same bytes written again are a new row: named as the same JSON with `after_erased`, the
 * erased row's id (and so on, should that one be erased too).
 */
export function artifactIdOf(house: Pick<House, 'store' | 'deployment'>, caller: Caller, contentHash: string, space: string, extra: Record<string, unknown> = {}): string {
  return artifactOf(house, caller, contentHash, space, extra).id;
}

/**
 * The id artifactIdOf answers, with the row of that id when there is one (a row not erased),
 * read once. `ids` keeps the ids worked out, by the erased id each follows ('' for the first):
 * a caller that asks again (an ingest, after its scan) reads the rows again without hashing.
 */
export function artifactOf(
  house: Pick<House, 'store' | 'deployment'>,
  caller: Caller,
  contentHash: string,
  space: string,
  extra: Record<string, unknown> = {},
  ids: Map<string, string> = new Map(),
): { id: string; row: ArtifactRow | undefined } {
  const idOf = (afterErased: string | null) => {
    const known = ids.get(afterErased ?? '');
    if (known !== undefined) return known;
    const more = afterErased === null ? {} : { after_erased: afterErased };
    const id = `sha256:${sha256Hex(
      canonicalJson({ ...extra, ...more, content_hash: contentHash, space, writer_identity: caller.identity, deployment_id: house.deployment.deploymentId }),
    )}`;
    ids.set(afterErased ?? '', id);
    return id;
  };
  let id = idOf(null);
  let row = house.store.artifacts.byId(id);
  while (row !== undefined && row.erased_seq !== null) {
    id = idOf(id);
    row = house.store.artifacts.byId(id);
  }
  return { id, row };
}

export interface NewRow {
  artifactId: string;
  space: string;
  workarea: string;
  bytes: Uint8Array;
  /** `sha256:` and the hex of `bytes`, when the caller worked it out already (an ingest names its row by it). */
  contentHash?: string;
  contentType: string;
  kind: string | null;
  trustClass: string;
  sourceUri: string;
  derivesFrom: string[];
  /** Fields of the ingest event beyond the common ones (producer, addressed_to, encoding, attachments…). */
  ingest: Record<string, unknown>;
  /** RECORDED (evidence, never graded) instead of scanned into quarantine. */
  recorded: boolean;
  scan: ScanResult;
  /** Findings the gate adds beside the scanner's (a bundle's archive that failed validation, one). */
  gateFindings?: Finding[];
  reason?: string;
}

/**
 * Appends one row's `ingest` event and its `scan` (or `record`) event, storing its bytes
 * and, when the scan masked anything, the masked form. Runs inside a journal write.
 */
export function appendRow(house: Pick<House, 'store' | 'pipeline'>, caller: Caller, row: NewRow): JournalEventOf<'scan' | 'record'> {
  const contentHash = row.contentHash ?? `sha256:${sha256Hex(row.bytes)}`;
  const findings = [...row.scan.findings, ...(row.gateFindings ?? [])];
  // With nothing masked the masked body is the body itself: one stored copy serves both.
  const maskedBytes = row.scan.masked === null ? row.bytes : Buffer.from(row.scan.masked, 'utf8');
  const maskedHash = row.scan.masked === null ? contentHash : `sha256:${sha256Hex(maskedBytes)}`;
  const flagged = row.scan.flagged || (row.gateFindings?.length ?? 0) > 0;
  const enters = row.recorded ? 'RECORDED' : flagged ? 'L1B_FLAGGED' : 'L1_SCANNED';
  house.store.journal.putBlob(contentHash, row.bytes);
  // A scanned held row is embedded and indexed for its writer right after the answer: from these bytes.
  if (enters === 'L1_SCANNED') house.pipeline.freshBodies.offer(contentHash, row.bytes);
  if (maskedHash !== contentHash) house.store.journal.putBlob(maskedHash, maskedBytes);
  const ingestData: EventData<'ingest'> = {
    artifact_id: row.artifactId,
    space: row.space,
    workarea: row.workarea,
    leaves: null,
    enters: 'L0_RAW',
    content_hash: contentHash,
    size_bytes: row.bytes.length,
    content_type: row.contentType,
    trust_class: row.trustClass,
    writer_kind: caller.kind,
    source_uri: row.sourceUri,
    derives_from: row.derivesFrom,
    ...row.ingest,
    ...(row.kind === null ? {} : { kind: row.kind }),
  };
  const scanData: EventData<'scan'> = {
    artifact_id: row.artifactId,
    space: row.space,
    workarea: row.workarea,
    leaves: 'L0_RAW',
    enters,
    trust_class: row.trustClass,
    content_type: row.contentType,
    findings_count: findings.length,
    findings,
    masked_hash: maskedHash,
    scanner: row.scan.scanner,
    ...(row.reason === undefined ? {} : { reason: row.reason }),
  };
  // One journal call, so the views fold the row and its scan together (Journal.appendAll).
  const [, scanEvent] = house.store.journal.appendAll([
    { type: 'ingest', by: caller.identity, data: ingestData },
    { type: row.recorded ? 'record' : 'scan', by: caller.identity, data: scanData },
  ]);
  // The second entry's event: the scan (or record).
  return scanEvent as JournalEventOf<'scan' | 'record'>;
}

/** The state a row entered, read back from its scan event. */
export const enteredState = (scanEvent: JournalEventOf<'scan' | 'record'>) => scanEvent.data.enters;
