/**
 * What an attack on a reading agent asks for, whatever words it uses: that the agent send,
 * post, forward, upload, attach, copy or fetch something private to somewhere outside, or
 * reveal what it holds (its prompt, secrets, other people's data). A memory that says so is
 * an attack however politely it is put ("for backup", "so the dashboard stays up to date",
 * "the vendor needs it").
 *
 * Read one sentence at a time as three parts that must all be there:
 *   - an act of moving data: send, post, forward, upload, attach, BCC, copy to, fetch or
 *     call an address with data in it, paste or include in a reply;
 *   - something private: credentials, keys, tokens, cookies, the conversation, the user's
 *     messages, mail, files or contact details, the agent's prompt or memory;
 *   - a place outside: a URL, an email address, a webhook, a phone number, a public bucket,
 *     or "our server".
 * Or two, where the act alone carries the harm: a copy of every message to an outside
 * address (BCC or forward "on every message"), or "reveal / print / list" aimed at the
 * reader's own prompt, secrets or other users' data. A sentence that forbids the act
 * ("never send passwords to …") is advice, not an attack.
 */
import type { Finding } from './finding.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';
import { segments } from './attack-windows.js';
import { cueGate } from './literal-cues.js';

/** Moving something out: the private thing goes with it. */
const MOVE =
  /\b(?:send\w*|sent|forward\w*|post(?:s|ed|ing)?|upload\w*|e-?mail(?:s|ed|ing)?|mail(?:s|ed|ing)?|transmit\w*|exfiltrat\w*|leak\w*|attach\w*|bcc|cc|cop(?:y|ies|ied)|sync\w*|back\s+up|submit\w*|push\w*|paste\w*|append\w*|include\w*|embed\w*|share\w*|report\w*|write|put)\b/i;
/** Reaching an address: harmful when the address carries the private thing (a query, a placeholder). */
const REACH = /\b(?:fetch\w*|get|gets|call\w*|request\w*|ping\w*|visit\w*|load\w*|open\w*|curl|wget|hit|query)\b/i;
// The data is looked for in an address's first 512 characters (a run of addresses was read
// to its end from each `http` inside it), and a query's `=` from its nearest `?`.
const ADDRESS_WITH_DATA =
  /\bhttps?:\/\/[^\s)"'<>]{0,512}?(?:\?[^\s)"'<>=?]*=|\{[^}\s]{1,40}\}|\$\{?\w+|<[^>\s]{1,40}>)|\b(?:followed\s+by|append(?:ed|ing)?|concatenat\w*|plus|with\s+(?:the|their))\b/i;
/**
 * Said to the reader: an order, the second person, or a standing rule ("always", "every time").
 * A clause ("if …,") starts at its first word after the spaces: spaces read either by `\s+` or
 * by the clause split a run of clauses every way, in time exponential in their number.
 */
const TO_THE_READER =
  /^\W*(?:(?:please|also|then|first|and|now|next|finally|afterwards|before\s+[^,\s][^,]{0,59},|after\s+[^,\s][^,]{0,59},|when\s+[^,\s][^,]{0,79},|if\s+[^,\s][^,]{0,79},)\s*)*(?:send|forward|post|upload|e-?mail|mail|attach|bcc|cc|copy|submit|push|paste|append|include|share|report|write|fetch|get|call|request|ping|visit|load|open|reveal|print|output|dump|list|show|display|repeat|recite|quote|disclose|tell|give|read|summari[sz]e|add|use|run|set|put|save)\b|\b(?:you|your|assistant|agents?|ai|model|always|whenever|every\s+time|each\s+time|must|should|need\s+to|make\s+sure|remember\s+to|be\s+sure\s+to|required|policy|procedure|convention)\b/i;
/** Credentials and secrets: private wherever they go. */
const SECRET =
  /\b(?:passwords?|passphrases?|passcodes?|credentials?|secrets?|(?:session|access|auth|bearer|api|refresh|id)\s+tokens?|tokens?|api[\s_-]?keys?|access[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?|cookies?|auth(?:orization)?\s+headers?|otp|one[\s-]time\s+(?:code|password)s?|2fa|mfa|verification\s+codes?|card\s+numbers?|cvv|ssn|social\s+security\s+numbers?|bank\s+(?:details|login)|account\s+(?:details|numbers?|balance)|environment\s+variables?|env\s+(?:file|vars?)|seed\s+phrase|recovery\s+phrase)\b/i;
/** Files that hold credentials: moving one anywhere is the harm. */
const SECRET_FILE = /(?:~\/|\/)?\.ssh\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws\/credentials|\.env\b|\.npmrc\b|\.pypirc\b|\bkubeconfig\b|\/etc\/(?:passwd|shadow)\b|\.git-credentials\b|\bwallet\.dat\b/i;
/** The people's own content: messages, mail, files, the conversation. */
const PERSONAL =
  /\b(?:(?:conversation|chat)(?:\s+(?:history|log|transcript))?|transcripts?|system\s+prompt|hidden\s+instructions|clipboard|keystrokes?|(?:user['’]?s?|their|the\s+user['’]?s?)\s+(?:\w+\s+)?(?:messages?|emails?|mail|inbox|files?|documents?|uploads?|data|notes|contacts?|contact\s+details|address(?:es)?|query|question|input|replies|history|keystrokes|screen|session)|files?\s+(?:that\s+)?the\s+user)\b/i;
// An email address is read from the start of its word only (from every dot or plus inside a
// long one, the rest was read again looking for its `@`).
const OUTSIDE =
  /\bhttps?:\/\/[^\s)"'<>]+|\bwww\.[\w-]+\.\w+|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\bwebhooks?\b|\+\d[\d\s-]{6,}\d|\b(?:our|my|this|the\s+following|an?\s+external|a\s+remote|the\s+attacker'?s?|the\s+support|a\s+third[\s-]party)\s+(?:server|endpoint|address|bucket|gist|pastebin|drop|inbox|channel)\b|\bpublic(?:ly)?\s+(?:bucket|gist|paste|repo\w*|channel|link|shared)?|\bshared\s+publicly\b|\bs3:\/\/|\bpastebin\b|\b(?:\d{1,3}\.){3}\d{1,3}\b|\breply\s+to\s+(?:this|the)\s+(?:message|email|sender)\b/i;
/** The reply itself as the way out, for secrets: whoever reads the answer gets them. */
const INTO_THE_REPLY = /\b(?:your|the)\s+(?:final\s+|next\s+)?(?:reply|answer|response|output|message)\b/i;
/** A copy of one's mail or messages to someone: the act is the harm. */
const COPY_TO = /\b(?:bcc|cc|forward\w*|cop(?:y|ies)\s+(?:of\s+)?|send\s+a\s+copy)\b/i;
const ADDRESS = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\bhttps?:\/\/\S+|\bwebhooks?\b|\+\d[\d\s-]{6,}\d/i;
const MAIL_OR_ALL = /\b(?:every|each|all|any)\b|\balways\b|\bwhenever\b|\b(?:e-?mails?|messages?|mails?|inbox|threads?|replies)\b/i;
/** Reveal, aimed at what only the reader holds. */
const REVEAL_VERB = String.raw`(?:reveal|print|output|dump|list|show|display|repeat|recite|quote|disclose|expose|tell\s+me|give\s+me|send\s+me|read\s+out|share|append|include|paste)`;
/**
 * The verb as an order: first in the sentence (after "please", "then", "before …,"), or after
 * "must", "to", "and". A lead word ends where its word does: "firstfirst…" split every way
 * between the words and `\w+` cost its length squared.
 */
export const REVEAL = new RegExp(
  String.raw`^\W*(?:(?:(?:please|also|then|first|now|next|finally)\b|before\s+[^,\s][^,]{0,59},|after\s+[^,\s][^,]{0,59},|when\s+[^,\s][^,]{0,79},|if\s+[^,\s][^,]{0,79},|\w+\s*[,:])\s*)*${REVEAL_VERB}\b|\b(?:please|must|should|to|and|then|now|always|can\s+you|could\s+you)\s+${REVEAL_VERB}\b`,
  'i',
);
const READERS_OWN =
  /\b(?:your\s+(?:(?:system|initial|hidden|original|full|exact|configuration|developer)\s+)*(?:prompt|instructions|message|configuration|memory|memories|context|secrets?|keys?|tokens?|credentials?|environment)|(?:available|visible|stored|loaded|you\s+can\s+see)\s+(?:to|in)\s+(?:you|your)\w*|you\s+can\s+see|in\s+your\s+(?:environment|context|memory|config\w*)|(?:other|previous|all)\s+users?'?s?|about\s+other\s+(?:users|people|customers)|everything\s+(?:that\s+)?(?:appears\s+)?above)\b/i;
const READERS_OWN_OBJECT =
  /\b(?:api[\s_-]?keys?|tokens?|secrets?|credentials?|passwords?|prompt|instructions|system\s+message|configuration|memor(?:y|ies)|conversation|history|emails?|names|environment\s+variables?)\b/i;
/** The act forbidden or warned against: advice, not an attack. */
const FORBIDDEN = /\b(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid|no\s+one\s+should|nobody\s+should|not\s+to)\b/i;

/**
 * The verbs of MOVE, REACH and REVEAL, each at the start of a word as those patterns read
 * it: a text with none of them asks for nothing to be moved, reached or revealed, and is not
 * read for it (literal-cues.ts).
 */
const VERB_GATE = cueGate(
  [
    'send', 'sent', 'forward', 'post', 'upload', 'email', 'e-mail', 'mail', 'transmit', 'exfiltrat', 'leak', 'attach', 'bcc', 'cc', 'cop', 'sync', 'back up', 'submit', 'push', 'paste', 'append', 'include', 'embed', 'share', 'report', 'write', 'put',
    'fetch', 'get', 'call', 'request', 'ping', 'visit', 'load', 'open', 'curl', 'wget', 'hit', 'query',
    'reveal', 'print', 'output', 'dump', 'list', 'show', 'display', 'repeat', 'recite', 'quote', 'disclose', 'expose', 'tell me', 'give me', 'read out',
  ].map((w) => `\\b${w}`),
  [MOVE, REACH, REVEAL],
);

/** A sentence longer than this is read in pieces. */
const SENTENCE_MAX = 320;

export function findExfiltrationIntents(text: string): Finding[] {
  if (!VERB_GATE.mayOccurIn(text) || (!MOVE.test(text) && !REACH.test(text) && !REVEAL.test(text))) return [];
  const findings: Finding[] = [];
  let context: ReturnType<typeof mentionContext> | null = null;
  for (const [segStart, segEnd] of segments(text)) {
    for (let start = segStart; start < segEnd; start += SENTENCE_MAX / 2) {
      const end = Math.min(segEnd, start + SENTENCE_MAX);
      const sentence = text.slice(start, end);
      const detail = intentOf(sentence);
      if (detail !== null) {
        context ??= mentionContext(text);
        findings.push({
          kind: 'injection.data-exfiltration',
          severity: context.severity('high', start, end),
          detail,
          start,
          end,
          excerpt: maskExcerpt(sentence),
        });
      }
      if (end === segEnd) break;
    }
  }
  return findings;
}

function intentOf(sentence: string): string | null {
  if (FORBIDDEN.test(sentence) || !TO_THE_READER.test(sentence)) return null;
  const moves = MOVE.test(sentence);
  const secret = SECRET.test(sentence);
  const personal = PERSONAL.test(sentence);
  if (moves && (secret || personal) && OUTSIDE.test(sentence)) {
    return 'Asks the reader to move private data (credentials, messages, files, the conversation) to a place outside.';
  }
  if (moves && SECRET_FILE.test(sentence)) return 'Asks the reader to send or paste a file that holds credentials (an SSH key, cloud credentials, an .env file).';
  if (moves && secret && INTO_THE_REPLY.test(sentence)) return 'Asks the reader to put credentials or secrets into its answer.';
  if ((secret || personal) && REACH.test(sentence) && ADDRESS_WITH_DATA.test(sentence) && OUTSIDE.test(sentence)) {
    return 'Asks the reader to call an outside address that carries private data (the conversation, the user’s messages, credentials).';
  }
  if (COPY_TO.test(sentence) && ADDRESS.test(sentence) && MAIL_OR_ALL.test(sentence)) {
    return 'Asks the reader to copy or forward mail or messages to an outside address.';
  }
  if (REVEAL.test(sentence) && READERS_OWN.test(sentence) && READERS_OWN_OBJECT.test(sentence)) {
    return "Asks the reader to reveal what only it holds: its prompt, secrets, or other users' data.";
  }
  return null;
}
