import type { FindingLocation } from './finding-location.js';

export type Severity = 'low' | 'medium' | 'high' | 'veto';

export interface Finding {
  /**
   * Dotted family.rule; the family is one of secret | injection | executable | unicode | personal.
   * The scan stage's own `scan_timeout` (workers/scan/scan-timeout.ts) says no detector finished.
   */
  kind: string;
  /** Medium or above holds the row in L1B_FLAGGED; veto keeps it there across a reopen. */
  severity: Severity;
  /** One sentence saying what was found; never contains the matched text. */
  detail: string;
  /** UTF-16 offsets into the scanned string, end exclusive. */
  start: number;
  end: number;
  /** The matched span masked: at most its first 4 characters, then '…(n more)'. */
  excerpt: string;
  /** Where it is when not in the body (a field, an attachment; finding-location.ts): its offsets count there. */
  location?: FindingLocation;
}

export interface ScanResult {
  /** Sorted by start. */
  findings: Finding[];
  /** Some finding has severity medium, high or veto. */
  flagged: boolean;
  /**
   * The text with every masked finding's span (all but executable ones, see isMaskedKind)
   * replaced by '█' of the same UTF-16 length, so offsets stay valid; null when no span is
   * masked, the text itself. Most claims mask nothing, and a copy of each sent back from the
   * scan pool was cloned twice on the way for nothing.
   */
  masked: string | null;
  /** Version label of the scanner that produced this result. */
  scanner: string;
}

export const SEVERITY_RANK: Record<Severity, number> = { low: 1, medium: 2, high: 3, veto: 4 };

export function isFlagging(severity: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK.medium;
}

/**
 * Whether a finding's span is hidden from the masked body. Secrets must not travel; an
 * injection must not reach the grader it targets; deceptive characters are what deceives.
 * An executable command is none of these: it cannot act on a reader that only reads it,
 * and the reviewer (person or model) judging the row has to see the command to judge it,
 * so it stays readable. Its excerpt is still cut like every other.
 */
export function isMaskedKind(kind: string): boolean {
  return !kind.startsWith('executable.');
}
