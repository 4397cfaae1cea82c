import { isFlagging, type Finding, type ScanResult } from './finding.js';

/**
 * A body's scan with the findings made elsewhere in the row (its fields, its attachments)
 * joined: they hold the row as the body's own do, while the masked body stays the body's,
 * since none of them has an offset into it.
 */
export function withFindings(result: ScanResult, more: readonly Finding[]): ScanResult {
  if (more.length === 0) return result;
  return { ...result, findings: [...result.findings, ...more], flagged: result.flagged || more.some((f) => isFlagging(f.severity)) };
}
