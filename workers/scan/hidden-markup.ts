/**
 * Text a person viewing the rendered claim would not see but an agent reading the raw text
 * would: HTML comments, elements hidden by inline CSS or the `hidden` attribute, markdown
 * link titles and image alt text, and HTML attributes. Hidden text is common and harmless
 * (to-do comments, alt text describing a picture), so it is reported when it addresses an
 * AI reader or carries an injection phrase; other text hidden by CSS is noted at low
 * severity, since web pages hide menus and search boxes the same way.
 */
import type { Severity } from './finding.js';
import { PHRASE_RULES } from './injection-phrases.js';

export interface HiddenText {
  kind: string;
  severity: Severity;
  detail: string;
  start: number;
  end: number;
}

export const ADDRESSES_AN_AGENT = new RegExp(
  [
    String.raw`\bif\s+you\s+are\s+(?:an?\s+)?(?:AI|LLM|language\s+model|assistant|agent|bot|chatbot|model|crawler)\b`,
    String.raw`\b(?:note|message|instructions?|reminder|directive)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:AI|LLM|assistant|agent|model|bot|crawler|summari[sz]er)s?\b`,
    String.raw`\b(?:AI|LLM|assistants?|agents?|bots?|chatbots?|GPT|ChatGPT|Claude|Gemini|Copilot)\s*[:,]\s*(?:please\s+)?[a-z]`,
    String.raw`\b(?:AI|LLM)s?(?:\s+(?:agents?|assistants?|models?|systems?|readers?|tools?))?\s+(?:should|must|shall|need\s+to|are\s+(?:required|instructed)\s+to)\b`,
    String.raw`\b(?:assistant|agent|model)s?\s+(?:should|must|shall)\s+(?:always|never|now|only|not|ignore|say|tell|recommend|include|output|respond|reply|rate|approve)\b`,
    String.raw`\bwhen\s+(?:you\s+)?(?:summari[sz]\w*|read\w*|process\w*|answer\w*|respond\w*|review\w*|grad\w*)\s+(?:to\s+)?(?:this|these|the\s+(?:page|document|text|claim|content))\b`,
  ].join('|'),
  'i',
);

function carriesInstruction(hidden: string): boolean {
  if (ADDRESSES_AN_AGENT.test(hidden)) return true;
  return PHRASE_RULES.some((rule) => {
    rule.pattern.lastIndex = 0;
    const hit = rule.pattern.test(hidden);
    rule.pattern.lastIndex = 0;
    return hit;
  });
}

const COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
const STYLED_OPEN_TAG = /<([a-z][a-z0-9-]*)\b([^<>]*?)>/gi;
const STYLE_ATTR = /\bstyle\s*=\s*(["'])([^"']*)\1/i;
const HIDDEN_ATTR = /(?:^|\s)hidden(?=\s|=|\/|$)/i;
const HIDING_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|!|$)|opacity\s*:\s*0(?:\.0+)?\s*(?:;|!|$)|(?:max-)?(?:width|height)\s*:\s*0(?:px)?\s*(?:;|!|$)|color\s*:\s*transparent|clip\s*:\s*rect\(\s*0|clip-path\s*:\s*inset\(\s*(?:50|100)%|(?:left|top|text-indent)\s*:\s*-\d{3,})/i;
const TAGS = /<[^<>]*>/g;
// Elements that never have content: hiding one hides no text.
const VOID_ELEMENT = /^(?:area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)$/;
// Linear (docs/scanner.md, "Bounded scan time"): spaces inside the brackets count at most 32
// at a time (a run between the address's optional parts was split every way between three
// quantifiers), and an address holds no `[`: `![a](![a](…` read to the text's end from each
// start, which a later link's text can begin inside.
const MARKDOWN_IMAGE = /!\[([^\]\n]{0,500})\]\(\s{0,32}<?[^\s)>[]*>?(?:\s{1,32}(["'(])([^\n]{0,500}?)["')])?\s{0,32}\)/g;
const MARKDOWN_LINK_TITLE = /(?<!!)\[[^\]\n]{0,500}\]\(\s{0,32}<?[^\s)>[]*>?\s{1,32}(["'(])([^\n]{0,500}?)["')]\s{0,32}\)/g;
const MARKDOWN_REFERENCE_TITLE = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+[ \t]+(["'(])(.{1,500}?)["')][ \t]*$/gm;
const HTML_TEXT_ATTR = /\b(?:alt|title|aria-label|aria-description|placeholder|content|data-[a-z0-9-]{1,64})\s*=\s*(["'])([^"'\n]{1,1000}?)\1/gi;

// From a word's start only: from every character of a long word, each read to its end.
const WORDS = /(?<!\S)\S+(?:\s+\S+){2}/;

function fromGroup(match: RegExpMatchArray, group: number): { start: number; end: number; value: string } | null {
  const value = match[group];
  if (value === undefined || value.length === 0) return null;
  // Groups here are the last text before a closing delimiter, so search from the end.
  const start = match.index! + match[0].lastIndexOf(value);
  return { start, end: start + value.length, value };
}

export function findHiddenText(text: string): HiddenText[] {
  const found: HiddenText[] = [];

  if (text.includes('<!--')) {
    for (const m of text.matchAll(COMMENT)) {
      if (carriesInstruction(m[1]!)) {
        found.push({
          kind: 'injection.hidden-comment',
          severity: 'high',
          detail: 'An HTML comment, invisible when rendered, that carries instructions for an AI reader.',
          start: m.index,
          end: m.index + m[0].length,
        });
      }
    }
  }

  if (text.includes('<')) {
    for (const m of text.matchAll(STYLED_OPEN_TAG)) {
      const attrs = m[2]!;
      const style = STYLE_ATTR.exec(attrs)?.[2];
      if (!(style !== undefined && HIDING_STYLE.test(style)) && !HIDDEN_ATTR.test(attrs)) continue;
      const tag = m[1]!.toLowerCase();
      if (VOID_ELEMENT.test(tag) || m[0].endsWith('/>')) continue;
      const bodyStart = m.index + m[0].length;
      const close = new RegExp(`</\\s*${tag}\\s*>`, 'i').exec(text.slice(bodyStart, bodyStart + 4000));
      // Unclosed: what follows up to the next tag is what the styling hides.
      const nextTag = text.indexOf('<', bodyStart);
      const bodyEnd = close ? bodyStart + close.index : nextTag === -1 ? Math.min(text.length, bodyStart + 4000) : nextTag;
      const end = close ? bodyEnd + close[0].length : bodyEnd;
      const inner = text.slice(bodyStart, bodyEnd).replace(TAGS, ' ');
      if (carriesInstruction(inner)) {
        found.push({
          kind: 'injection.hidden-css',
          severity: 'high',
          detail: 'Text hidden from view by styling that carries instructions for an AI reader.',
          start: m.index,
          end,
        });
      } else if (WORDS.test(inner)) {
        found.push({
          kind: 'injection.hidden-css',
          // Pages hide menus and search boxes this way; only what the text says makes it an attack.
          severity: 'low',
          detail: 'Text hidden from view by styling, readable only to a machine.',
          start: m.index,
          end,
        });
      }
    }

    for (const m of text.matchAll(HTML_TEXT_ATTR)) {
      const span = fromGroup(m, 2);
      if (span && carriesInstruction(span.value)) {
        found.push({
          kind: 'injection.hidden-attribute',
          severity: 'high',
          detail: 'An HTML attribute, not shown as page text, that carries instructions for an AI reader.',
          start: span.start,
          end: span.end,
        });
      }
    }
  }

  if (text.includes('](') || text.includes(']:')) {
    const markdownSpans: Array<{ start: number; end: number; value: string } | null> = [];
    for (const m of text.matchAll(MARKDOWN_IMAGE)) {
      const altStart = m.index + 2;
      markdownSpans.push({ start: altStart, end: altStart + m[1]!.length, value: m[1]! }, fromGroup(m, 3));
    }
    for (const m of text.matchAll(MARKDOWN_LINK_TITLE)) markdownSpans.push(fromGroup(m, 2));
    for (const m of text.matchAll(MARKDOWN_REFERENCE_TITLE)) markdownSpans.push(fromGroup(m, 2));
    for (const span of markdownSpans) {
      if (span && span.value.length > 0 && carriesInstruction(span.value)) {
        found.push({
          kind: 'injection.hidden-attribute',
          severity: 'high',
          detail: 'A markdown link title or image alt text, not shown as text, that carries instructions for an AI reader.',
          start: span.start,
          end: span.end,
        });
      }
    }
  }

  return found;
}
