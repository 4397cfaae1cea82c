import { lifecycle } from '../src/gate-error.js';
import type { Finding, ScanResult } from '../workers/scan/finding.js';
import type { ScanField } from '../workers/scan/finding-location.js';
import { withFindings } from '../workers/scan/joined-findings.js';
import type { PipelinePart } from './pipeline-part.js';

/** How much of a text attachment is scanned: its first 4 MiB (docs/attachments.md). */
export const ATTACHMENT_TEXT_SCANNED = 4 * 1024 * 1024;

/** Media types (as the image pool names them from the bytes) whose bytes an agent reads as text. */
export function isTextMedia(mediaType: string): boolean {
  const type = mediaType.toLowerCase();
  return (
    type.startsWith('text/') ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    ['application/json', 'application/xml', 'application/rtf', 'application/javascript', 'application/x-sh'].includes(type)
  );
}

/** An attachment of a row as the scan reads it: by its hash, with what it is and where it came from. */
export interface ScannedAttachment {
  sha256: string;
  media_type: string;
  size_bytes: number;
  source_uri?: string | null;
}

export interface RowToScan {
  bytes: Uint8Array;
  contentType: string;
  /** The fields the row is served with (src/scanning/row-fields.ts). */
  fields: readonly ScanField[];
  /** The row's attachments: each one's source_uri is a field of it, and a text one's first 4 MiB are read. */
  attachments: readonly ScannedAttachment[];
  /** The body findings of the row's last scan, when it is scanned again (its masked body keeps them masked). */
  standing?: Finding[] | null;
}

/**
 * Everything of a row an agent will read, scanned in the scan pool: the body, its fields and
 * each attachment's source, and the text of every text attachment. One result: every finding
 * anywhere is the row's (it holds the row as one in the body does), each outside the body with
 * its location; the masked body is the body's. The attachments' bytes are read here and
 * decoded only in the worker, like a claim's.
 */
export async function scanRow(pipeline: Pick<PipelinePart, 'scan' | 'attachmentStore'>, row: RowToScan): Promise<ScanResult> {
  const texts = row.attachments.filter((a) => isTextMedia(a.media_type) && a.size_bytes > 0);
  const attachmentBytes = await Promise.all(texts.map((a) => readText(pipeline, a)));
  const fields: ScanField[] = [
    ...row.fields,
    ...row.attachments.flatMap((a) => (a.source_uri == null ? [] : [{ location: { attachment: a.sha256, field: 'source_uri' as const }, text: a.source_uri }])),
  ];
  // Every part is handed to the stage in one turn, so they travel in one pool task when they fit.
  const scans = enqueueAll([
    () => pipeline.scan.scan(row.bytes, row.contentType, row.standing ?? null, fields),
    ...attachmentBytes.map((bytes) => () => pipeline.scan.scan(bytes, row.contentType)),
  ]);
  const [body, ...attachments] = await Promise.all(scans);
  return withFindings(
    body!,
    attachments.flatMap((scan, i) => scan.findings.map((f) => ({ ...f, location: { attachment: texts[i]!.sha256 } }))),
  );
}

async function readText(pipeline: Pick<PipelinePart, 'attachmentStore'>, a: ScannedAttachment): Promise<Uint8Array> {
  try {
    return await pipeline.attachmentStore.readRange(a.sha256, 0, Math.min(a.size_bytes, ATTACHMENT_TEXT_SCANNED));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw lifecycle(`the bytes of attachment ${a.sha256.slice(0, 23)} are gone: it cannot be scanned`, 'attachment_missing');
    }
    throw error;
  }
}

/**
 * Starts every scan, or none: a stage that refuses one part (its queue full) leaves the parts
 * already queued to finish on their own, their outcome unread, and the refusal is the answer.
 */
function enqueueAll(starts: ReadonlyArray<() => Promise<ScanResult>>): Promise<ScanResult>[] {
  const started: Promise<ScanResult>[] = [];
  try {
    for (const start of starts) started.push(start());
  } catch (error) {
    for (const p of started) p.catch(() => undefined);
    throw error;
  }
  return started;
}

/**
 * The fields of a write that makes several rows (a bundle and its members, a map and its
 * members), scanned once: every row of it is served with the same fields, so each takes these
 * findings beside its own.
 */
export async function scanFieldsAlone(pipeline: Pick<PipelinePart, 'scan'>, contentType: string, fields: readonly ScanField[]): Promise<Finding[]> {
  return (await pipeline.scan.scan(new Uint8Array(0), contentType, null, [...fields])).findings;
}
