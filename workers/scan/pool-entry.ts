/**
 * Piscina worker entry for the scan pool. Claims arrive in batches because one pool round
 * trip costs about as much as scanning a 1 KB claim; the gate has already checked that the
 * bytes are valid UTF-8, so decoding is not fatal. A leading byte-order mark is kept,
 * so offsets count from the same first character the gate stored.
 */
import type { ScanResult } from './finding.js';
import { scanText } from './scan-text.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export interface ScanTask {
  batch: ArrayBuffer[];
  /** The content type of each claim in `batch`, at the same index. */
  contentTypes: string[];
}

export default async function scanBatch(task: ScanTask): Promise<ScanResult[]> {
  const results: ScanResult[] = [];
  for (const [i, buffer] of task.batch.entries()) results.push(await scanText(decoder.decode(buffer), { contentType: task.contentTypes[i]! }));
  return results;
}
