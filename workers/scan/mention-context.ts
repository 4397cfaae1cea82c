/**
 * Telling an instruction from a mention of one.
 *
 * A claim that explains prompt injection has to quote the phrases attackers use, and a
 * later reader is meant to learn from it, not hold it. A claim that *is* an injection can
 * wrap itself in quotes too, so quotes alone cannot clear it. The rule, applied to every
 * injection finding:
 *
 *   - bare (not quoted, not code), no discussion nearby       -> the detector's severity
 *   - bare, in a paragraph that discusses attacks/examples     -> at most medium
 *   - quoted or in code, with no discussion nearby             -> at most medium
 *   - quoted or in code, discussed, quote carries no payload   -> low
 *   - quoted or in code, discussed, but the quote also asks for
 *     an action with consequences (a URL, sending, printing a
 *     prompt, touching credentials)                           -> at most medium
 *
 * So a discussed phrase yields a low finding and never medium or above, while the same
 * phrase with a payload, or with no quotes, still holds the row. "Quoted" means inside a
 * pair of quotation marks on one line holding at most MAX_QUOTE characters (a long quoted
 * instruction is still an instruction), an inline code span or a fenced code block.
 */
import type { Severity } from './finding.js';
import { SEVERITY_RANK } from './finding.js';
import { RegionIndex } from './region-index.js';

const MAX_QUOTE = 160;
const WINDOW = 400;

export type Region = readonly [start: number, end: number];

const QUOTE_PAIRS: RegExp[] = [
  /"([^"\n]{1,400})"/g,
  /“([^”\n]{1,400})”/g,
  /«([^»\n]{1,400})»/g,
  /„([^“”\n]{1,400})[“”]/g,
  /「([^」\n]{1,400})」/g,
  // Single quotes double as apostrophes, so they pair only at word edges.
  /(?<=^|[\s([{:;,—–-])'([^'\n]{1,400}?)'(?=$|[\s.,;:!?)\]}—–-])/gm,
  /(?<=^|[\s([{:;,—–-])‘([^’\n]{1,400}?)’(?=$|[\s.,;:!?)\]}—–-])/gm,
];

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_CODE = /`[^`\n]+`/g;

// Words about the topic, not reporting verbs: "my boss said '…'" is no discussion.
const DISCUSSION =
  /\b(?:prompt[\s-]+injections?|injections?|jailbreak\w*|attacks?|attackers?|adversar\w*|malicious|exploit\w*|payloads?|red[\s-]?team\w*|defen[cs]e\w*|defend\w*|detect\w*|filter\w*|sanitiz\w*|mitigat\w*|phrases?|strings?|patterns?|examples?|e\.g\.|such\s+as|for\s+instance|tokens?|templates?|tokeniz\w*)\b/i;

// Addresses are not prose: "example.org" in a link says nothing about the paragraph.
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\bwww\.\S+/gi;

/**
 * What a text must hold for URL to match in any stretch of it (a stretch joined with a space
 * adds neither), and for DISCUSSION to: every alternative of DISCUSSION opens with one of
 * these words, written whole in the text (a URL replaced or a quotation left out puts spaces
 * between the text's words, never letters). Asked once a text, they spare each finding of a
 * text that holds none the two patterns over the 800 characters around it: most of a scan
 * of a MiB of findings (docs/scanner.md, "Bounded scan time").
 */
const MAY_HOLD_URL = /:\/\/|www\./i;
const DISCUSSION_OPENINGS =
  /prompt|injection|jailbreak|attack|adversar|malicious|exploit|payload|red|defen|detect|filter|sanitiz|mitigat|phrase|string|pattern|example|e\.g\.|such|for|token|template/i;

/** `stretch` without its addresses; `mayHoldUrl` false says the text it comes from holds none. */
export const withoutUrls = (stretch: string, mayHoldUrl: boolean): string => (mayHoldUrl ? stretch.replace(URL, ' ') : stretch);
export const mayHoldUrl = (text: string): boolean => MAY_HOLD_URL.test(text);

const PAYLOAD =
  /https?:\/\/|www\.|(?<![\w.+-])[\w.+-]+@[\w-]+\.\w|\b(?:send|e-?mail|post|upload|exfiltrat\w*|transfer|forward|curl|wget|fetch|execute|exec|run|delete|rm\s+-|drop\s+table|reveal|leak|print|output|dump|approve|promote|grant|password|api[\s_-]?keys?|secrets?|tokens?|credentials?)\b/i;

export interface MentionContext {
  /** Severity for a finding over [start, end) whose detector would give `base`. */
  severity(base: Severity, start: number, end: number): Severity;
  /**
   * Whether text[start, end) is a stretch of prose about attacks that quotes them: it holds a
   * quotation or code, its own words (outside those) discuss attacks, and no quotation asks
   * for an act with consequences. A window the classifier reads whole is judged this way,
   * since its quotations sit inside it.
   */
  discussesQuoted(start: number, end: number): boolean;
}

/** Fenced code blocks and inline code spans. */
export function codeRegions(text: string): Region[] {
  const regions: Region[] = [];
  const fences: Region[] = [];
  let offset = 0;
  let open: { start: number; marker: string } | null = null;
  for (const line of text.split('\n')) {
    const fence = FENCE_OPEN.exec(line);
    if (open === null && fence) {
      open = { start: offset, marker: fence[1]! };
    } else if (open !== null && fence && fence[1]![0] === open.marker[0] && fence[1]!.length >= open.marker.length) {
      fences.push([open.start, offset + line.length]);
      open = null;
    }
    offset += line.length + 1;
  }
  if (open !== null) fences.push([open.start, text.length]);
  // One at a time: spread, 100,000 fences or more overflowed the stack and failed the scan.
  for (const fence of fences) regions.push(fence);
  // The fences are in order and apart: only the last one opening at or before a span can hold it.
  let fence = 0;
  for (const m of text.matchAll(INLINE_CODE)) {
    const start = m.index;
    while (fence + 1 < fences.length && fences[fence + 1]![0] <= start) fence++;
    const inFence = fences.length > 0 && fences[fence]![0] <= start && start < fences[fence]![1];
    if (!inFence) regions.push([start, start + m[0].length]);
  }
  return regions;
}

/** The insides of short quotations on one line. */
export function quoteRegions(text: string): Region[] {
  const regions: Region[] = [];
  for (const re of QUOTE_PAIRS) {
    for (const m of text.matchAll(re)) {
      const inner = m[1]!;
      if (inner.length > MAX_QUOTE) continue;
      const start = m.index + m[0].indexOf(inner);
      regions.push([start, start + inner.length]);
    }
  }
  return regions;
}

export function paragraphAround(text: string, start: number, end: number): [number, number] {
  // Searched within WINDOW only: a text without paragraph breaks would otherwise be read to
  // its ends once per finding, and a long attack yields thousands of findings.
  const from = Math.max(0, start - WINDOW);
  const before = text.slice(from, start + 2).lastIndexOf('\n\n');
  const after = text.slice(end, end + WINDOW + 1).indexOf('\n\n');
  return [before === -1 ? from : from + before, after === -1 ? Math.min(text.length, end + WINDOW) : end + after];
}

function atMost(severity: Severity, cap: Severity): Severity {
  return SEVERITY_RANK[severity] <= SEVERITY_RANK[cap] ? severity : cap;
}

export function mentionContext(text: string): MentionContext {
  let regions: RegionIndex | null = null;
  let urls: boolean | null = null;
  let discussion: boolean | null = null;
  return {
    severity(base, start, end) {
      regions ??= new RegionIndex([...codeRegions(text), ...quoteRegions(text)]);
      const mention = regions.smallestHolding(start, end);
      const [from, to] = mention ?? [start, end];
      discussion ??= DISCUSSION_OPENINGS.test(text);
      urls ??= mayHoldUrl(text);
      let discussed = false;
      if (discussion) {
        const [pFrom, pTo] = paragraphAround(text, from, to);
        // Discussion words inside the quote itself do not count: the attacker wrote those.
        const around = withoutUrls(`${text.slice(pFrom, from)} ${text.slice(to, pTo)}`, urls);
        discussed = DISCUSSION.test(around);
      }
      if (!mention) return discussed ? atMost(base, 'medium') : base;
      if (!discussed) return atMost(base, 'medium');
      return PAYLOAD.test(text.slice(from, to)) ? atMost(base, 'medium') : 'low';
    },
    discussesQuoted(start, end) {
      regions ??= new RegionIndex([...codeRegions(text), ...quoteRegions(text)]);
      const inside = regions.allWithin(start, end);
      if (inside.length === 0) return false;
      let own = text.slice(start, end);
      for (const [s, e] of inside) own = own.slice(0, s - start) + ' '.repeat(e - s) + own.slice(e - start);
      return DISCUSSION.test(own.replace(URL, ' ')) && !inside.some(([s, e]) => PAYLOAD.test(text.slice(s, e)));
    },
  };
}
