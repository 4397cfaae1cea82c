import { createHash } from 'node:crypto';
import type { Gate } from '../../dist/src/gate.js';
import type { ScanFinding } from '../../dist/src/projections/artifact-reads.js';

/** The scanner label an older build named its scans with. */
export const OLDER_SCANNER = 'gate-scan/1 (an older build)';

/** A finding as a scan event records it. */
export type OlderScanFinding = ScanFinding;

export interface LeftBehind {
  /** The row's content type (its kind for gated rows); memory by default, `event` is a recorded class. */
  contentType?: string;
  /** The scan an older scanner made; without one the row is left in L0_RAW, as a crash between ingest and scan left it. */
  scan?: { enters: string; findings: OlderScanFinding[] };
  source_uri?: string;
  workarea?: string;
  /** Envelope v2 entries, as an ingest records them (uploads this gate completed). */
  attachments?: Array<Record<string, unknown>>;
}

/**
 * No build of this gate leaves a row in L0_RAW or scanned by another scanner, so a test
 * writes what an older build or a crash would have left, on a gate open in the test's process:
 * an ingest alone, or an ingest with the scan an older scanner made, signed and chained like
 * any event. Answers the row's id.
 */
export function leftBehind(gate: Gate, text: string, options: LeftBehind = {}): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  const contentHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const artifactId = `sha256:${createHash('sha256').update(`left behind ${text}`).digest('hex')}`;
  const contentType = options.contentType ?? 'memory';
  const recorded = contentType === 'event';
  const workarea = options.workarea ?? 'scan/left';
  return gate.store.writer.write(() => {
    gate.store.journal.putBlob(contentHash, bytes);
    gate.store.journal.append('ingest', 'key:olderbuild', {
      artifact_id: artifactId, space: 'main', workarea, leaves: null, enters: 'L0_RAW', content_hash: contentHash,
      size_bytes: bytes.length, content_type: contentType, trust_class: 'T-1', writer_kind: 'program', source_uri: options.source_uri ?? 'test://scan',
      derives_from: [], ...(recorded ? {} : { kind: contentType }),
      ...(options.attachments === undefined ? {} : { envelope: 2, attachments: options.attachments }),
    });
    if (options.scan) {
      gate.store.journal.append('scan', 'key:olderbuild', {
        artifact_id: artifactId, space: 'main', workarea, leaves: 'L0_RAW', enters: options.scan.enters, trust_class: 'T-1',
        content_type: contentType, findings_count: options.scan.findings.length, findings: options.scan.findings, masked_hash: contentHash,
        scanner: OLDER_SCANNER,
      });
    }
    return artifactId;
  }) as Promise<string>;
}
