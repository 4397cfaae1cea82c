/** A finding as a command shows it: what, how bad, and where in the text just shown. */
export interface ShownFinding {
  kind: string;
  severity: string;
  start: number;
  end: number;
  detail?: string;
}

/** The findings, one a line, with where each is in the body just shown; `note` adds a word to a line (a masked span, say). */
export function findingLines(findings: readonly ShownFinding[], note: (f: ShownFinding) => string = () => ''): string {
  return findings.map((f, n) => `  ${n + 1}. ${f.kind} (${f.severity}) at characters ${f.start}-${f.end}${f.detail ? `: ${f.detail}` : ''}${note(f)}\n`).join('');
}
