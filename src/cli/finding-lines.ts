import { isFlagging, type Severity } from '../../workers/scan/finding.js';
import { Ending } from './command-ending.js';
import { EXIT } from './exit-codes.js';
import { answer } from './terminal-answer.js';

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

/**
 * Deciding for a text over findings that would hold it (medium and above) is a second,
 * deliberate act: they are listed, and the person types the decision's word (a plain y is not
 * enough), or a script passes --over-findings beside --yes. `what` names the text (this row,
 * this submission), `word` the act (approve, countersign).
 */
export async function decideOverFindings(findings: readonly ShownFinding[], what: string, word: string, options: { yes?: boolean; overFindings?: boolean }): Promise<void> {
  const holding = findings.filter((f) => isFlagging(f.severity as Severity));
  if (holding.length === 0) return;
  const list = findingLines(holding);
  const held = `the scanner ${what} for ${holding.length} finding${holding.length === 1 ? '' : 's'}:\n${list}`;
  if (options.yes) {
    if (options.overFindings) return;
    throw new Ending(`${held}${word === 'approve' ? 'approving' : `${word}ing`} over them takes --over-findings beside --yes`, EXIT.badArgument);
  }
  process.stderr.write(held.charAt(0).toUpperCase() + held.slice(1));
  if ((await answer(`Type ${word} to ${word} over them (anything else ${word === 'approve' ? 'signs' : 'decides'} nothing): `)) !== word) {
    throw new Ending(word === 'approve' ? 'nothing signed' : 'nothing decided', EXIT.errorObject);
  }
}
