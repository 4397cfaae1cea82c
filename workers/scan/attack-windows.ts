/**
 * The stretches of a text the attack classifier reads one at a time. The model was trained
 * on prompts and paragraphs of at most a few hundred characters; an instruction buried in a
 * long benign document would be outvoted by the document if the whole were read as one.
 * So a long text is cut at line and sentence ends into windows of at most WINDOW_MAX
 * characters, and each window is judged alone; a finding then also says where it is.
 */

export const WINDOW_MAX = 480;

export type Window = readonly [start: number, end: number];

// A sentence ends at . ! ? (and their full-width forms) followed by a space, or at a line end.
const BOUNDARY = /(?<=[.!?。！？])\s+|\n+/g;

function segments(text: string): Window[] {
  const out: Window[] = [];
  let start = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    if (m.index > start) out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

const LETTER_RUN = /\p{L}+/gu;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const MIN_LETTERS = 10;
const MIN_WORDS = 3;
/** Words of at least CONTENT_LETTERS letters: "the and of it" has four words and nothing to say. */
const MIN_CONTENT_WORDS = 2;
const CONTENT_LETTERS = 4;

/**
 * Whether a window holds enough words for the model to read: greeting-sized text ("Go 🏴!",
 * "hello world") or function words alone ("the and of it") give it a handful of features
 * and its bias, no evidence. Scripts written without spaces count their letters instead.
 */
export function enoughToRead(text: string): boolean {
  const runs = text.match(LETTER_RUN);
  if (runs === null) return false;
  const letters = runs.reduce((n, r) => n + r.length, 0);
  if (letters < MIN_LETTERS) return false;
  if (UNSPACED_SCRIPT.test(text)) return true;
  return runs.length >= MIN_WORDS && runs.filter((r) => r.length >= CONTENT_LETTERS).length >= MIN_CONTENT_WORDS;
}

/** Windows covering every non-blank part of `text`, each at most WINDOW_MAX long, with enough words to read. */
export function attackWindows(text: string): Window[] {
  return cutWindows(text).filter(([s, e]) => enoughToRead(text.slice(s, e)));
}

function cutWindows(text: string): Window[] {
  if (text.length <= WINDOW_MAX) return text.trim() === '' ? [] : [[0, text.length]];
  const windows: Window[] = [];
  let open: [number, number] | null = null;
  for (const [s, e] of segments(text)) {
    if (e - s > WINDOW_MAX) {
      if (open) windows.push(open);
      open = null;
      // An overlong segment (minified code, a base64 line) is read in overlapping halves.
      for (let at = s; at < e; at += WINDOW_MAX / 2) {
        windows.push([at, Math.min(e, at + WINDOW_MAX)]);
        if (at + WINDOW_MAX >= e) break;
      }
      continue;
    }
    if (open && e - open[0] <= WINDOW_MAX) open[1] = e;
    else {
      if (open) windows.push(open);
      open = [s, e];
    }
  }
  if (open) windows.push(open);
  return windows;
}
