/**
 * What a window must say before the attack classifier may hold it: a word or phrase of what
 * attacks ask for (rules set aside, restrictions removed, refusals forbidden, secrets or the
 * prompt revealed, code run, harm named). The classifier reads style as well as meaning, and
 * style is what differs between sources: trained on some kinds of benign text, it holds some
 * of a kind it never saw (everyday questions, role prompts, dialogue) for sounding like the
 * attacks it learned. Measured leaving each source out (bench/scanner-quality.js), asking for
 * one of these cues removed nearly all of those holds and kept nearly all of the attacks.
 * The list names the semantics of attacks in general, not any data set's wording.
 */
import { foldForMatching } from './fold-for-matching.js';
import { cueGate, knownAscii } from './literal-cues.js';

export const CUES = new RegExp(
  [
    String.raw`\b(?:ignor\w*|bypass\w*|overrid\w*|disregard\w*|forget\w*|circumvent\w*|evad\w*|break\w*|drop\w*|disabl\w*)\b[^.!?\n]{0,40}\b(?:rules?|instructions?|guidelines?|polic(?:y|ies)|restrictions?|filters?|safeguards?|guardrails?|programming|limitations?|ethics|morals?|laws?)\b`,
    String.raw`\b(?:no|without|free\s+(?:of|from)|not\s+bound|unbound|zero|sans|beyond|regardless\s+of)\b[^.!?\n]{0,40}\b(?:rules|restrictions?|filters?|limits|limitations|ethics|ethical|morals?|morality|censorship|guidelines|boundaries|laws?|polic(?:y|ies))\b`,
    String.raw`\b(?:uncensored|unfiltered|unrestricted|jailbr\w*|amoral|immoral|unethical|illegal\w*|nsfw|do\s+anything\s+now|developer\s+mode|dan|evil|villain\w*|harmful|dangerous|explicit|offensive|malicious|malware|exploit\w*|hack\w*|weapons?|drugs?)\b`,
    String.raw`\b(?:never|not|won't|cannot|can't|don't|do\s+not)\s+(?:\w+\s+)?(?:refus\w*|decline\w*|reject\w*|warn\w*|censor\w*|apologi[sz]\w*)\b`,
    // An order to give up secrets, not a statement that something sends them.
    String.raw`(?:^|[.!?:;]\s+|\n|\b(?:please|and|then|to|must|should|always|you|also|now)\s+)(?:reveal|print|show|output|repeat|leak|dump|tell|give|send|paste|post|upload|forward)\b[^.!?\n]{0,40}\b(?:system\s+prompt|instructions|secrets?|passwords?|api\s*keys?|tokens?|credentials?|cookies?|memor(?:y|ies)|conversation|history|configuration)\b`,
    // Code that runs programs or reaches for secrets, not the words "system" or "shell" in prose.
    String.raw`\b(?:os\.system|system\s*\(|subprocess|popen|child_process|spawn\s*\(|exec\s*\(|eval\s*\(|__import__|getattr\s*\(|whoami|reverse\s+shell|rm\s+-rf|sudo\s|powershell|invoke-expression|iex\s*\(|curl\s+-|wget\s+-|nc\s+-e|\/bin\/(?:ba)?sh|\/etc\/(?:passwd|shadow))|\/dev\/tcp`,
  ].join('|'),
  'gi',
);

/**
 * Words one of which every match of CUES holds, read as substrings (a window may start inside
 * a word, so no word boundary is assumed): where a text all in ASCII (which folding leaves as
 * it is) holds none, none of its windows holds a cue, and the classifier reads none of them.
 * Most claims of what agents store hold one and read on; the check costs nothing, being
 * answered by the scan's one walk of the text (literal-cues.ts).
 */
const CUE_GATE = cueGate(
  [
    // what is set aside or absent (the first two parts)
    'rule', 'instruction', 'guideline', 'polic', 'restriction', 'filter', 'safeguard', 'guardrail', 'programming', 'limit', 'ethic', 'moral', 'law', 'censor', 'boundaries',
    // the words of the third part
    'uncensored', 'unfiltered', 'unrestricted', 'jailbr', 'illegal', 'nsfw', 'do anything now', 'developer mode', 'dan', 'evil', 'villain', 'harmful', 'explicit', 'offensive', 'malicious', 'malware', 'exploit', 'hack', 'weapon', 'drug',
    // what is not to be refused (the fourth)
    'refus', 'declin', 'reject', 'warn', 'apologi',
    // what is to be given up (the fifth)
    'system prompt', 'secret', 'password', 'apikey', 'api key', 'token', 'credential', 'cookie', 'memor', 'conversation', 'history', 'configuration',
    // code that runs programs (the sixth); a call is its name and a parenthesis (the stream reads any
    // run of whitespace as one space)
    'os.system', 'subprocess', 'popen', 'child_process', 'whoami', 'reverse shell', 'rm -rf', 'sudo ', 'powershell', 'invoke-expression', 'curl -', 'wget -', 'nc -e', '/bin/', '/etc/', '/dev/tcp',
    ...['system', 'spawn', 'exec', 'eval', 'getattr', 'iex'].flatMap((call) => [`${call}(`, `${call} (`]),
    '__import__',
  ],
  [CUES],
);

/** A cue the sentence forbids ("Never send passwords to …", "Don't ignore the rules") is advice, not a cue. */
const NEGATED = /\b(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid|no\s+one\s+should)\b[^.!?\n]{0,40}$/i;

/** Whether text[start, end) holds a cue of what attacks ask for, not forbidden where it stands. */
export function holdsAttackCue(text: string, start = 0, end = text.length): boolean {
  if (knownAscii(text) && !CUE_GATE.mayOccurIn(text)) return false;
  // Read as the phrase rules read: look-alike letters and invisible characters undone.
  const window = foldForMatching(start === 0 && end === text.length ? text : text.slice(start, end)).text;
  CUES.lastIndex = 0;
  for (let m = CUES.exec(window); m !== null; m = CUES.exec(window)) {
    if (!NEGATED.test(window.slice(Math.max(0, m.index - 60), m.index))) {
      CUES.lastIndex = 0;
      return true;
    }
  }
  return false;
}
