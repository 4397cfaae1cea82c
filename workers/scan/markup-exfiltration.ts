/**
 * Markup an agent's answer would carry out of the conversation when rendered. A markdown
 * image or link whose address has a slot for data (`?d=USER_LAST_MESSAGE`, `{session_token}`,
 * `[INSERT_CHAT_HISTORY_HERE]`) is a request to fill the slot with the conversation: the
 * reader's client fetches the image and the data leaves with the request. Script and event
 * handlers (`<script>`, `onerror=`, `javascript:` links) that reach cookies, storage or another
 * origin run in whoever renders the text. Plain images and plain markup are left alone: only
 * an address with a slot, or a script that reaches out, is a finding.
 */
import { enclosedSpans } from './enclosed-spans.js';
import type { Finding } from './finding.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';

/** Markdown images and links, and HTML images, with an address that has a query or a template. */
// The address ends at a space, a bracket or `>`, then a title may follow: an address that ran
// on over `(` read the rest of a run of links again from each one's start.
const MARKDOWN_TARGET = /!?\[[^\]\n]{0,200}\]\(\s*<?((?:https?:)?\/\/[^\s()<>]{1,2000})>?(?:\s+["'][^"'\n]{0,200}["'])?\s*\)/gi;
const HTML_SOURCE = /<(?:img|image|source|video|audio|iframe|link|embed|object|input)\b[^>\n]{0,400}?\b(?:src|href|data|srcset|poster)\s*=\s*["']?((?:https?:)?\/\/[^\s"'>]{1,2000})/gi;
/**
 * A slot for data in an address: an upper-case placeholder, braces, a shell variable, brackets,
 * angle brackets, within 24 characters after a `/`, `?`, `&`, `#` or `=` (read to the end of
 * the address from each of them, a run of them cost its length squared).
 */
const SLOT = /[?&#=/][^?&#=\s/]{0,24}(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\{\{?[^}\s]{1,60}\}\}?|\$\{?[A-Za-z_]\w*\}?|\[[^\]\s]{1,60}\]|<[^>]{1,60}>|%7B[^%\s]{1,60}%7D)/;
/** Words that name what would fill a query: the conversation, the user, secrets. */
const DATA_WORDS = /[?&][^=&#?\s]*=[^&#?\s]*\b(?:user|message|msg|conversation|chat|history|token|secret|password|passwd|api_?key|email|notes|summary|query|prompt|session|cookie|data|input|context|memory)\b/i;

/** Script and handlers that reach out of the page: cookies, storage, another origin, code from text. */
const REACHES_OUT = /document\.cookie|localStorage|sessionStorage|document\.domain|\bfetch\s*\(|XMLHttpRequest|sendBeacon|new\s+Image|\.src\s*=|(?:window\.|document\.|top\.|parent\.)?location(?:\.href)?\s*=|window\.open|\beval\s*\(|\batob\s*\(|\bimport\s*\(|alert\s*\(|prompt\s*\(|String\.fromCharCode|\bhttps?:\/\//i;
/** A script's opening tag, or one that loads a script from another site (its closing tag: enclosed-spans.ts). */
const SCRIPT_OPEN = /<script\b([^>\n]{0,400})>|<script\b[^>\n]{0,400}\bsrc\s*=\s*["']?(?:https?:)?\/\/[^\s"'>]+/gi;
const SCRIPT_CLOSE = /<\/script\s*>/gi;
/** How far a script's body runs before its closing tag is no longer looked for. */
const SCRIPT_BODY_MAX = 4000;
/** A script element of a type that is data, not code (JSON-LD, templates): nothing runs. */
const DATA_SCRIPT = /\btype\s*=\s*["']?(?!(?:text|application)\/(?:javascript|ecmascript)|module\b)[\w/+.-]+/i;
const HANDLER = /<[a-z][\w-]{0,20}\b[^>\n]{0,400}?\son[a-z]{3,24}\s*=\s*(?:"([^"\n]{0,600})"|'([^'\n]{0,600})'|([^\s>]{1,600}))/gi;
const JAVASCRIPT_URL = /(?:\]\(\s*|\b(?:href|src|action|formaction|data)\s*=\s*(?:["']\s*)?)javascript:[^\s)"'>]{0,600}/gi;

export function findMarkupExfiltration(text: string): Finding[] {
  const lower = text.includes('](') || text.includes('<') ? text : '';
  if (lower === '') return [];
  const found: Array<{ kind: string; detail: string; start: number; end: number }> = [];
  for (const pattern of [MARKDOWN_TARGET, HTML_SOURCE]) {
    for (const m of text.matchAll(pattern)) {
      const address = m[1]!;
      if (!SLOT.test(address) && !DATA_WORDS.test(address)) continue;
      found.push({
        kind: 'injection.markdown-exfiltration',
        detail: 'An image or link whose address has a slot for data from the conversation: rendered, it would send that data to another site.',
        start: m.index,
        end: m.index + m[0].length,
      });
    }
  }
  // A script's body runs to its closing tag; a tag that loads a script from another site is one by itself.
  // An opening holds a '>' or a '//': without either the pattern would read 400 characters
  // from each '<script' for nothing (a MiB of them took a third of a second).
  const scripts = text.includes('>') || text.includes('//') ? enclosedSpans(text, SCRIPT_OPEN, SCRIPT_CLOSE, { max: SCRIPT_BODY_MAX, standsAlone: (m) => m[1] === undefined }) : [];
  for (const script of scripts) {
    const attributes = script.opening[1];
    if (attributes !== undefined && DATA_SCRIPT.test(attributes)) continue;
    if (attributes !== undefined && !REACHES_OUT.test(text.slice(script.inner, script.innerEnd))) continue;
    found.push({ kind: 'injection.active-markup', detail: 'A script that reaches cookies, storage or another site in whoever renders the text.', start: script.start, end: script.end });
  }
  // A handler is assigned with '=': without one, each '<' would be read 400 characters on for nothing.
  for (const m of text.includes('=') ? text.matchAll(HANDLER) : []) {
    const code = m[1] ?? m[2] ?? m[3] ?? '';
    if (!REACHES_OUT.test(code)) continue;
    found.push({ kind: 'injection.active-markup', detail: 'An event handler in markup that runs code reaching cookies, storage or another site.', start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(JAVASCRIPT_URL)) {
    found.push({ kind: 'injection.active-markup', detail: 'A javascript: address in a link or source: clicking or loading it runs code.', start: m.index, end: m.index + m[0].length });
  }
  if (found.length === 0) return [];
  const context = mentionContext(text);
  return found.map((f) => ({ ...f, severity: context.severity('high', f.start, f.end), excerpt: maskExcerpt(text.slice(f.start, f.end)) }));
}
