import { SEVERITY_RANK, type Severity } from '../../workers/scan/finding.js';

/** What a read serving a row says of what the scanner found in it: the kind and severity, never where or what matched. */
export interface FindingMark {
  kind: string;
  severity: string;
}

const rank = (severity: string) => SEVERITY_RANK[severity as Severity] ?? 0;

/**
 * The distinct kinds and severities of a scan's findings, the most severe first (then by
 * kind): a row promoted over findings is served with them, so an agent reading it knows it
 * was held for them and a person approved it all the same (docs/spec-choices.md).
 */
export function findingMarks(findings: ReadonlyArray<{ kind: string; severity: string }>): FindingMark[] {
  const seen = new Map<string, FindingMark>();
  for (const { kind, severity } of findings) seen.set(`${kind}\n${severity}`, { kind, severity });
  return [...seen.values()].sort((a, b) => rank(b.severity) - rank(a.severity) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** A served row's mark: `scanner_findings` when the scanner found something in it, nothing otherwise. */
export const markedWith = (marks: FindingMark[]): { scanner_findings?: FindingMark[] } => (marks.length === 0 ? {} : { scanner_findings: marks });
