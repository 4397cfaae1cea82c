import { describe, expect, it } from 'vitest';
import { SentenceReading } from '../../workers/scan/sentence-reading.js';

// A sentence taken from the text's one reading holds exactly what the piece read alone
// held (the override detector's pieces overlap, and its findings were measured on pieces
// read alone): the same words with the same offsets, the same flat text, and the same
// places in it. The reference below is how a piece was read alone.
const WORD = /[\p{L}\p{M}'’]+/gu;
const QUOTES = new Set(['"', '“', '”', '«', '»', '„', '`', "'", '‘', '’']);

function readAlone(text: string, start: number, end: number) {
  const piece = text.slice(start, end);
  const words: Array<{ text: string; start: number; end: number }> = [];
  for (const m of piece.matchAll(WORD)) {
    const before = piece[m.index - 1];
    const after = piece[m.index + m[0].length];
    if (before !== undefined && after !== undefined && QUOTES.has(before) && QUOTES.has(after)) continue;
    const lead = m[0].length - m[0].replace(/^['’]+/, '').length;
    const core = m[0].replace(/^['’]+|['’]+$/g, '');
    if (core === '') continue;
    const at = start + m.index + lead;
    words.push({ text: core.toLowerCase(), start: at, end: at + core.length });
    const cut = Math.max(core.lastIndexOf("'"), core.lastIndexOf('’'));
    if (cut > 0 && cut < core.length - 1) words.push({ text: core.slice(cut + 1).toLowerCase(), start: at + cut + 1, end: at + core.length });
    if (cut > 0) words.push({ text: core.slice(0, cut + 1).toLowerCase().replace('’', "'"), start: at, end: at + cut + 1 });
  }
  let flat = '';
  const at: number[] = [];
  let space = false;
  for (let i = 0; i < piece.length; i++) {
    const ch = piece[i]!;
    if (/\s/.test(ch)) {
      space = flat.length > 0;
      continue;
    }
    if (space) {
      flat += ' ';
      at.push(start + i);
      space = false;
    }
    flat += ch.toLowerCase()[0];
    at.push(start + i);
  }
  return { words, flat, at };
}

const FRAGMENTS = [
  'Ignore', 'all', 'previous', 'INSTRUCTIONS', "dell'operatore", 'l’istruzioni', '"ignore"', '“rules”', "'quoted'", 'Vergiss', 'Anweisungen',
  '忽略所有指令', 'без правил', 'İstanbul', 'ΣΟΦΊΑ', '𝐀𝐁𝐂', '😀', '\ud835', '\udc00', "''", '’’x’’', ' ', '  ', '\n', '\t\r\n', '\u00a0', '\u3000',
  '. ', '! ', '«', '»', 'x'.repeat(40), 'e\u0301te\u0301',
];

function textOf(seed: number): string {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  let text = '';
  const parts = 5 + Math.floor(next() * 80);
  for (let k = 0; k < parts; k++) text += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]! + (next() < 0.5 ? ' ' : '');
  return text;
}

describe('a text read once for all its sentences', () => {
  it('gives each sentence the words, flat text and places it held read alone, wherever its edges cut', () => {
    let sentencesCompared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = textOf(seed);
      const reading = new SentenceReading(text, (word) => word.length, 0);
      // Pieces of every width from every start, in order of start, as the detector asks.
      const step = 1 + (seed % 7);
      for (let start = 0; start < text.length; start += step) {
        const end = Math.min(text.length, start + 1 + ((seed * 31 + start) % 90));
        const sentence = reading.sentence(start, end);
        const alone = readAlone(text, start, end);
        expect(sentence.words.map(({ text: w, start: s, end: e }) => ({ text: w, start: s, end: e }))).toEqual(alone.words);
        expect(sentence.words.map((w) => w.tag)).toEqual(alone.words.map((w) => w.text.length));
        expect(sentence.flat).toBe(alone.flat);
        expect([...sentence.at]).toEqual(alone.at);
        const tags: number[] = [];
        sentence.eachTag((tag) => tags.push(tag));
        expect(tags).toEqual(alone.words.map((w) => w.text.length));
        expect(sentence.distinctWords.map((w) => w.text)).toEqual([...new Set(alone.words.map((w) => w.text))]);
        sentencesCompared++;
      }
    }
    expect(sentencesCompared).toBeGreaterThan(10_000);
  });

  it('finds a literal in a sentence where the sentence alone finds it, asked in order or again for the one before', () => {
    const literals = ['all previous', 'ignore', ' ', 'x x', '忽略', 'правил'];
    for (let seed = 1; seed <= 200; seed++) {
      const text = textOf(seed);
      const reading = new SentenceReading(text, () => null, literals.length);
      let previous: ReturnType<typeof reading.sentence> | null = null;
      for (let start = 0; start < text.length; start += 20) {
        const sentence = reading.sentence(start, Math.min(text.length, start + 40));
        for (const [slot, literal] of literals.entries()) {
          expect(reading.indexIn(sentence, literal, slot)).toBe(sentence.flat.indexOf(literal));
          if (previous !== null) expect(reading.indexIn(previous, literal, slot)).toBe(previous.flat.indexOf(literal));
          expect(reading.contains(sentence, literal, slot)).toBe(sentence.flat.includes(literal));
        }
        previous = sentence;
      }
    }
  });

  it('refuses a sentence asked before one already read', () => {
    const reading = new SentenceReading('one two three four', () => null, 0);
    reading.sentence(4, 10);
    expect(() => reading.sentence(0, 5)).toThrow(/in order/);
  });
});
