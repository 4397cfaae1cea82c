import { isFlagging, type Severity } from '../../workers/scan/finding.js';
import { whereFound, type FindingLocation } from '../../workers/scan/finding-location.js';
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
  /** Outside the body (a field, an attachment): then its offsets count there. */
  location?: FindingLocation;
}

/**
 * The findings, one a line, with where each is in the body just shown, or in which field or
 * attachment it is; `note` adds a word to a line (a masked span, say).
 */
export function findingLines(findings: readonly ShownFinding[], note: (f: ShownFinding) => string = () => ''): string {
  const where = (f: ShownFinding) => (f.location === undefined ? '' : ` ${whereFound(f.location)}`);
  return findings.map((f, n) => `  ${n + 1}. ${f.kind} (${f.severity})${where(f)} at characters ${f.start}-${f.end}${f.detail ? `: ${f.detail}` : ''}${note(f)}\n`).join('');
}

/** An act a person may take over findings, in the words a command uses for it. */
export interface ActOverFindings {
  /** What the person types to do it anyway (`approve`, `countersign`). */
  word: string;
  /** How the refusal names doing it (`approving`). */
  doing: string;
  /** What any other answer does (`signs nothing`), and the ending then (`nothing signed`). */
  otherwise: string;
  ended: string;
}

/**
 * Deciding for a text over findings that would hold it (medium and above) is a second,
 * deliberate act: they are listed, and the person types the act's word (a plain y is not
 * enough), or a script passes --over-findings beside --yes. `held` says what held what
 * (`held this row`, `would hold this submission`).
 */
export async function decideOverFindings(findings: readonly ShownFinding[], held: string, act: ActOverFindings, options: { yes?: boolean; overFindings?: boolean }): Promise<void> {
  const holding = findings.filter((f) => isFlagging(f.severity as Severity));
  if (holding.length === 0) return;
  const which = `${held} for ${holding.length} finding${holding.length === 1 ? '' : 's'}:\n${findingLines(holding)}`;
  if (options.yes) {
    if (options.overFindings) return;
    throw new Ending(`the scanner ${which}${act.doing} over them takes --over-findings beside --yes`, EXIT.badArgument);
  }
  process.stderr.write(`The scanner ${which}`);
  if ((await answer(`Type ${act.word} to ${act.word} over them (anything else ${act.otherwise}): `)) !== act.word) throw new Ending(act.ended, EXIT.errorObject);
}
