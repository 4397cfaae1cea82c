import { answerBody, questionBody } from './body-forms.js';

/** A label is a glance, not a preview: one line, this many characters at most. */
export const LABEL_CHARS = 120;

/** The bytes read from a masked body to make a label; the label never needs more than its first line. */
export const LABEL_SOURCE_BYTES = 512;

/**
 * The first line with words in it, white space collapsed, cut to LABEL_CHARS. Only the
 * line's first few hundred characters are looked at: 2,000 labels per graph answer make
 * collapsing whole bodies a visible share of its cost.
 */
function firstLine(text: string): string {
  const window = LABEL_CHARS * 4;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const cut = end - start > window;
    const line = text.slice(start, cut ? start + window : end).replace(/\s+/g, ' ').trim();
    if (line !== '') return cut || line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1).trimEnd()}…` : line;
    start = end + 1;
  }
  return '';
}

/**
 * A node's label from its masked body (a label never shows what the scanner masked). A
 * question or an answer is a closed JSON form, so its label is the first line of the
 * question or answer text rather than the JSON around it; a form the mask broke falls back
 * to the text itself.
 */
export function nodeLabel(kind: string | null, masked: string): string {
  if (kind === 'question' || kind === 'answer') {
    try {
      const json: unknown = JSON.parse(masked);
      const q = kind === 'question' ? questionBody.safeParse(json) : null;
      if (q?.success) return firstLine(q.data.question);
      const a = kind === 'answer' ? answerBody.safeParse(json) : null;
      if (a?.success) return firstLine(a.data.answer);
    } catch {
      // Not JSON after masking: the text itself is the best label left.
    }
  }
  return firstLine(masked);
}
