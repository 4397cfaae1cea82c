import type { Finding, ScanResult } from '../../workers/scan/finding.js';

/**
 * An archive's own row is not scanned as text (its members are, each as a row of its
 * own); what holds it is the gate's word about it: the archive failed inspection, or a
 * member it carries is flagged, so promoting the archive would admit that member.
 */
export const UNSCANNED_ARCHIVE: ScanResult = { findings: [], flagged: false, masked: null, scanner: 'gate-bundle/1' };

export function archiveFinding(reason: string): Finding {
  return { kind: 'bundle.archive_invalid', severity: 'high', detail: `the archive failed inspection: ${reason}`, start: 0, end: 0, excerpt: '' };
}

export function memberFindings(members: ReadonlyArray<{ path: string; flagged: boolean }>): Finding[] {
  return members.flatMap((m, i) =>
    m.flagged
      ? [{ kind: 'bundle.member_flagged', severity: 'high' as const, detail: `member ${i + 1} of the archive is flagged by the scanner`, start: 0, end: 0, excerpt: '' }]
      : [],
  );
}
