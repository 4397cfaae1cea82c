/**
 * Telling a command shown from a command given.
 *
 * Documentation quotes dangerous commands to explain them: a post on supply-chain attacks
 * shows `curl … | sh` in a code block and says why not to run it. An instruction to run
 * the same line looks much alike, so being in a code block clears nothing by itself (an
 * install guide puts its commands in code blocks too). A command counts as *shown* when
 *
 *   - it sits in a fenced block, an inline code span or a short quotation, and
 *   - the prose around it (WINDOW characters each side, not past a heading; the command
 *     itself not counted: the attacker wrote that)
 *     warns against it or names it as an attack ("do not run", "attackers", "malicious"),
 *     or explains it ("this is how", "for example", "what it does") without also telling
 *     the reader to run it.
 *
 * Anything else is *given*: bare in the text, in a code block nobody explains, or
 * introduced with "run this" or "paste into your terminal".
 */
import { codeRegions, mayHoldUrl, quoteRegions, withoutUrls } from './mention-context.js';
import { RegionIndex } from './region-index.js';

const WARNS =
  /\b(?:attack(?:s|ers?|ed)?|malicious|malware|phishing|backdoor\w*|compromis\w*|dangerous|unsafe|insecure|risky|suspicious|beware|warning|caution|(?:do\s+not|don't|never|avoid|stop)\s+(?:\w+\s+){0,3}?(?:run\w*|execut\w*|pip\w*|past\w*|copy\w*|trust\w*|us(?:e|ing))\b)/i;

const EXPLAINS =
  /\b(?:this\s+is\s+how|for\s+example|for\s+instance|e\.g\.|such\s+as|example|explain\w*|what\s+(?:it|this)\s+does|means?|pattern|detect\w*|flag\w*|red[\s-]?team\w*|incident|post[\s-]?mortem|pipes?|downloads?)\b/i;

// A negated instruction ("do not run") is a warning, so it is removed before looking for one.
const NEGATED_RUN = /\b(?:do\s+not|don't|never|avoid|stop|without)\s+(?:\w+\s+){0,3}?(?:run\w*|execut\w*|past\w*|typ\w*|enter\w*)\b/gi;
const TELLS_TO_RUN = /\b(?:run|execute|paste|type|enter)\b|\binstall\w*\s+(?:it\s+)?(?:with|by|using|via)\b|\bthen\s+run\b/i;

// A code block usually stands apart from the sentence that introduces it, so the prose
// counted is a window each side rather than the paragraph.
const WINDOW = 300;
const HEADING = /\n {0,3}#{1,6}[ \t]/g;

function surroundings(text: string, from: number, to: number): string {
  const before = text.slice(Math.max(0, from - WINDOW), from);
  const headings = [...before.matchAll(HEADING)];
  const after = text.slice(to, to + WINDOW);
  const nextHeading = after.search(HEADING);
  return `${headings.length === 0 ? before : before.slice(headings.at(-1)!.index)} ${nextHeading === -1 ? after : after.slice(0, nextHeading)}`;
}


export interface CommandContext {
  /** The command over [start, end) is shown as documentation, not given as an instruction. */
  shown(start: number, end: number): boolean;
}

export function commandContext(text: string): CommandContext {
  let regions: RegionIndex | null = null;
  let urls: boolean | null = null;
  return {
    shown(start, end) {
      regions ??= new RegionIndex([...codeRegions(text), ...quoteRegions(text)]);
      const mention = regions.smallestHolding(start, end);
      if (!mention) return false;
      const [from, to] = mention;
      // Addresses are not prose: "attacker.example" in the command's URL is not a warning.
      urls ??= mayHoldUrl(text);
      const around = withoutUrls(surroundings(text, from, to), urls);
      if (WARNS.test(around)) return true;
      return EXPLAINS.test(around) && !TELLS_TO_RUN.test(around.replace(NEGATED_RUN, ' '));
    },
  };
}
