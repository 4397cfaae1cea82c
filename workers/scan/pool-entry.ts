/**
 * Piscina worker entry for the scan pool. Claims arrive in batches because one pool round
 * trip costs about as much as scanning a 1 KB claim; the gate has already checked that the
 * bytes are valid UTF-8, so decoding is not fatal. A leading byte-order mark is kept,
 * so offsets count from the same first character the gate stored.
 */
import type { Finding, ScanResult } from './finding.js';
import type { ScanField } from './finding-location.js';
import { withFindings } from './joined-findings.js';
import { maskedOrNull } from './mask.js';
import type { PersonalDataSeverity } from './personal-data-severity.js';
import { scanFields } from './scan-fields.js';
import { scanText } from './scan-text.js';
import { isArmed, SCAN_STALL_MS } from '../../src/failpoints.js';
import { unpackTexts, type PackedTexts } from '../packed-texts.js';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export interface ScanTask {
  /** The claims' bytes, packed into one transferred buffer. */
  batch: PackedTexts;
  /** The content type of each claim in `batch`, at the same index. */
  contentTypes: string[];
  /**
   * For a row scanned again, the findings its last scan recorded (null for a first scan):
   * they stand until a person disposes of them, so the masked body still masks their spans.
   */
  standing?: Array<Finding[] | null>;
  /** The fields each claim is served with, scanned each as a text of its own (null or absent: none). */
  fields?: Array<ScanField[] | null>;
  /** `scan.personal_data_severity`: the severity of personal data about someone (absent: the default, high). */
  personalDataSeverity?: PersonalDataSeverity;
}

const stalls = isArmed('scan-worker-stalls');

export default async function scanBatch(task: ScanTask): Promise<ScanResult[]> {
  // A synchronous hold, as a slow scan holds its thread.
  if (stalls) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SCAN_STALL_MS);
  const results: ScanResult[] = [];
  for (const [i, bytes] of unpackTexts(task.batch).entries()) {
    const text = decoder.decode(bytes);
    const options = { contentType: task.contentTypes[i]!, personalDataSeverity: task.personalDataSeverity };
    const result = await scanText(text, options);
    const standing = task.standing?.[i] ?? null;
    if (standing !== null && standing.length > 0) {
      result.masked = maskedOrNull(text, [...result.findings, ...standing]);
    }
    const fields = task.fields?.[i] ?? null;
    results.push(fields === null ? result : withFindings(result, await scanFields(fields, options)));
  }
  return results;
}
