/**
 * A text's sentences as the override detector reads them (override-words.ts), read once
 * between them. That detector reads a long line in pieces that overlap by half, and each
 * piece used to be split into words and lower-cased on its own: every unit of a long text
 * was read twice, and the pieces' copies were most of what a scan left for the collector
 * (docs/scanner.md, "Bounded scan time"). Here the text is split into runs of word units and
 * flattened once, a run's words are read once for every run of the same text, and a
 * sentence is a range of both; a run that a piece's edge cuts is read from the piece, as
 * before, so each sentence holds exactly the words and the flat text it held read alone.
 */
import { isSpaceUnit } from './literal-cues.js';
import { unitsOf } from './text-units.js';

export interface Word<Tag> {
  /** Lower-cased. */
  text: string;
  /** Offsets in the scanned text. */
  start: number;
  end: number;
  /** What the reader's `tagOf` said of `text`. */
  tag: Tag;
}

/** A word unit: what `[\p{L}\p{M}'’]` matches in a `u` pattern. */
const WORD = /[\p{L}\p{M}'’]+/gu;
const WORD_CHAR = /^[\p{L}\p{M}'’]$/u;
const QUOTES = new Set(['"', '“', '”', '«', '»', '„', '`', "'", '‘', '’']);
const EDGE_APOSTROPHES = /^['’]+|['’]+$/g;

/** Per UTF-16 unit outside the surrogates: 2 a word unit, 1 not, 0 not yet asked. */
const WORD_UNIT = new Uint8Array(0x10000);
function isWordUnit(c: number): boolean {
  let known = WORD_UNIT[c]!;
  if (known === 0) {
    known = WORD_CHAR.test(String.fromCharCode(c)) ? 2 : 1;
    WORD_UNIT[c] = known;
  }
  return known === 2;
}
/** Code points outside the BMP, asked as met (few texts hold any). */
const ASTRAL_WORD = new Map<number, boolean>();
function isWordCodePoint(cp: number): boolean {
  let known = ASTRAL_WORD.get(cp);
  if (known === undefined) {
    known = WORD_CHAR.test(String.fromCodePoint(cp));
    if (ASTRAL_WORD.size < 4096) ASTRAL_WORD.set(cp, known);
  }
  return known;
}
const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** A word of a run, placed relative to the run's start. */
interface RunWord<Tag> {
  text: string;
  from: number;
  to: number;
  tag: Tag;
}

/** What every run of one text reads as: its words, and their tags in order. */
interface RunReading<Tag> {
  words: ReadonlyArray<RunWord<Tag>>;
  tags: readonly Tag[];
}

/**
 * A run of word units as words: apostrophes belong to a word inside it (don't), not at its
 * edges, where they are quotes; and an elided article or pronoun (dell'operatore, t'a,
 * qu'on) also leaves the word after it, and itself.
 */
function readRun<Tag>(run: string, tagOf: (word: string) => Tag): RunReading<Tag> {
  const core = run.replace(EDGE_APOSTROPHES, '');
  if (core === '') return { words: [], tags: [] };
  let lead = 0;
  while (run[lead] === "'" || run[lead] === '’') lead++;
  const words: Array<RunWord<Tag>> = [];
  const push = (text: string, from: number, to: number): void => {
    words.push({ text, from, to, tag: tagOf(text) });
  };
  push(core.toLowerCase(), lead, lead + core.length);
  const cut = Math.max(core.lastIndexOf("'"), core.lastIndexOf('’'));
  if (cut > 0 && cut < core.length - 1) push(core.slice(cut + 1).toLowerCase(), lead + cut + 1, lead + core.length);
  if (cut > 0) push(core.slice(0, cut + 1).toLowerCase().replace('’', "'"), lead, lead + cut + 1);
  return { words, tags: words.map((w) => w.tag) };
}

/** Lower case of a UTF-16 unit read alone (its first unit where lower case lengthens it), filled in as met. */
const LOWER = new Uint16Array(0x10000);
function lowerUnit(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  let lower = LOWER[c]!;
  if (lower === 0) {
    lower = String.fromCharCode(c).toLowerCase().charCodeAt(0);
    LOWER[c] = lower;
  }
  return lower;
}

const NO_WORDS: readonly never[] = [];

export class Sentence<Tag> {
  private flatText: string | null = null;
  private flatAt: Int32Array | null = null;
  private allWords: ReadonlyArray<Word<Tag>> | null = null;
  private firstWords: ReadonlyArray<Word<Tag>> | null = null;

  constructor(
    private readonly reading: SentenceReading<Tag>,
    readonly start: number,
    readonly end: number,
    /** The words of a run the sentence's start cuts (or of the one run that holds it). */
    readonly headWords: ReadonlyArray<Word<Tag>>,
    /** The runs wholly inside, firstRun to lastRun exclusive. */
    readonly firstRun: number,
    readonly lastRun: number,
    /** The words of a run the sentence's end cuts. */
    readonly tailWords: ReadonlyArray<Word<Tag>>,
    /** Its range in the reading's flat text. */
    readonly flatStart: number,
    readonly flatEnd: number,
  ) {}

  /** Its words, in order; a word quoted on its own is left out (a mention). */
  get words(): ReadonlyArray<Word<Tag>> {
    this.allWords ??= this.reading.wordsOf(this);
    return this.allWords;
  }

  /** The first of its words of each text, in order: what a search for the first word that is something reads. */
  get distinctWords(): ReadonlyArray<Word<Tag>> {
    if (this.firstWords === null) {
      const seen = new Set<string>();
      const first: Array<Word<Tag>> = [];
      for (const word of this.words) {
        if (seen.has(word.text)) continue;
        seen.add(word.text);
        first.push(word);
      }
      this.firstWords = first;
    }
    return this.firstWords;
  }

  /** Calls `visit` with each of its words' tags, in order, without making its words. */
  eachTag(visit: (tag: Tag) => void): void {
    for (const word of this.headWords) visit(word.tag);
    this.reading.eachInnerTag(this, visit);
    for (const word of this.tailWords) visit(word.tag);
  }

  /** The sentence lower-cased, one unit for one, each run of whitespace one space, none at its ends. */
  get flat(): string {
    this.flatText ??= this.reading.flatText.slice(this.flatStart, this.flatEnd);
    return this.flatText;
  }

  /** For each unit of `flat`, its offset in the scanned text (a space: the unit after its run). */
  get at(): Int32Array {
    this.flatAt ??= this.reading.flatAt.subarray(this.flatStart, this.flatEnd);
    return this.flatAt;
  }
}

export class SentenceReading<Tag> {
  /** The whole text as a sentence's `flat` reads it: lower-cased, each run of whitespace one space, none at the ends. */
  readonly flatText: string;
  /** For each unit of flatText, its offset in the text. */
  readonly flatAt: Int32Array;
  /** For each offset of the text (and its length), the flat index of the first non-space unit at or after it. */
  private readonly flatFrom: Int32Array;
  /** For each offset of the text (and its length), the flat index just past the last non-space unit before it. */
  private readonly flatTo: Int32Array;
  /** Runs of word units, maximal in the whole text: start, end. */
  private runBounds: Int32Array;
  private runs = 0;
  /** Each run's reading, shared by runs of the same text. */
  private readonly runReadings: Array<RunReading<Tag>> = [];
  /** Whether a quote stands on each side of a run (a word quoted on its own is named, not said). */
  private readonly runQuoted: Uint8Array;
  /** The first run that may meet the next sentence: sentences are read in order. */
  private nextRun = 0;
  private lastStart = 0;
  /** Per literal slot of `indexIn`, its first occurrence in flatText at or after askedFrom (-1: none, -2: not yet searched). */
  private readonly occurrence: Int32Array;
  private readonly askedFrom: Int32Array;

  /**
   * `tagOf` is asked once for each distinct word of the text's runs, and for the words of
   * a run cut by a sentence's edge; `literals` is how many literal slots `indexIn` takes.
   */
  constructor(
    private readonly text: string,
    private readonly tagOf: (word: string) => Tag,
    literals: number,
  ) {
    this.occurrence = new Int32Array(literals).fill(-2);
    this.askedFrom = new Int32Array(literals);
    const length = text.length;
    const units = unitsOf(text);
    const flat = new Uint16Array(length);
    const at = new Int32Array(length);
    const flatFrom = new Int32Array(length + 1);
    const flatTo = new Int32Array(length + 1);
    let n = 0;
    let afterLast = 0;
    let pendingSpace = false;
    let unplaced = 0;
    for (let u = 0; u < length; u++) {
      const c = units[u]!;
      flatTo[u] = afterLast;
      if (isSpaceUnit(c)) {
        pendingSpace = n > 0;
        continue;
      }
      if (pendingSpace) {
        flat[n] = 32;
        at[n] = u;
        n++;
        pendingSpace = false;
      }
      for (; unplaced <= u; unplaced++) flatFrom[unplaced] = n;
      flat[n] = lowerUnit(c);
      at[n] = u;
      n++;
      afterLast = n;
    }
    flatTo[length] = afterLast;
    for (; unplaced <= length; unplaced++) flatFrom[unplaced] = n;
    this.flatText = Buffer.from(flat.buffer, 0, n * 2).toString('utf16le');
    this.flatAt = at.subarray(0, n);
    this.flatFrom = flatFrom;
    this.flatTo = flatTo;

    // Runs of word units, as WORD's matches over the whole text (a surrogate pair is one
    // unit of the pattern's, a lone surrogate none), each read once for its text.
    this.runBounds = new Int32Array(256);
    const quoted: number[] = [];
    const byText = new Map<string, RunReading<Tag>>();
    let u = 0;
    while (u < length) {
      const width = this.wordWidth(units, u, length);
      if (width === 0) {
        u++;
        continue;
      }
      const start = u;
      u += width;
      for (let w = this.wordWidth(units, u, length); w !== 0; w = this.wordWidth(units, u, length)) u += w;
      const runText = text.slice(start, u);
      let read = byText.get(runText);
      if (read === undefined) {
        read = readRun(runText, tagOf);
        byText.set(runText, read);
      }
      if (2 * this.runs + 2 > this.runBounds.length) {
        const grown = new Int32Array(this.runBounds.length * 2);
        grown.set(this.runBounds);
        this.runBounds = grown;
      }
      this.runBounds[2 * this.runs] = start;
      this.runBounds[2 * this.runs + 1] = u;
      this.runReadings.push(read);
      quoted.push(start > 0 && u < length && QUOTES.has(text[start - 1]!) && QUOTES.has(text[u]!) ? 1 : 0);
      this.runs++;
    }
    this.runQuoted = Uint8Array.from(quoted);
  }

  /** The units of the word unit at `u` (2 for a surrogate pair), or 0 where none starts there. */
  private wordWidth(units: Uint16Array, u: number, length: number): number {
    if (u >= length) return 0;
    const c = units[u]!;
    if (isHigh(c)) {
      if (u + 1 < length && isLow(units[u + 1]!)) return isWordCodePoint(((c - 0xd800) << 10) + (units[u + 1]! - 0xdc00) + 0x10000) ? 2 : 0;
      return 0;
    }
    if (isLow(c)) return 0;
    return isWordUnit(c) ? 1 : 0;
  }

  /** The sentence from `start` to `end`; asked in order of `start`. */
  sentence(start: number, end: number): Sentence<Tag> {
    if (start < this.lastStart) throw new Error('sentences are read in order');
    this.lastStart = start;
    const bounds = this.runBounds;
    let r = this.nextRun;
    while (r < this.runs && bounds[2 * r + 1]! <= start) r++;
    this.nextRun = r;
    let head: ReadonlyArray<Word<Tag>> = NO_WORDS;
    let tail: ReadonlyArray<Word<Tag>> = NO_WORDS;
    // A run the start cuts is read from the sentence's start.
    if (r < this.runs && bounds[2 * r]! < start) {
      head = this.edgeWords(start, Math.min(bounds[2 * r + 1]!, end), start, end);
      r++;
    }
    const firstRun = r;
    while (r < this.runs && bounds[2 * r + 1]! <= end) r++;
    const lastRun = r;
    if (r < this.runs && bounds[2 * r]! < end) tail = this.edgeWords(bounds[2 * r]!, end, start, end);
    const flatStart = this.flatFrom[start]!;
    const flatEnd = Math.max(flatStart, this.flatTo[end]!);
    return new Sentence(this, start, end, head, firstRun, lastRun, tail, flatStart, flatEnd);
  }

  /** Whether run r, wholly inside the sentence, is quoted there (a quote at the sentence's edge is no quote). */
  private skipped(sentence: Sentence<Tag>, r: number): boolean {
    return this.runQuoted[r] === 1 && this.runBounds[2 * r]! > sentence.start && this.runBounds[2 * r + 1]! < sentence.end;
  }

  /** The tags of the words of the sentence's runs wholly inside it, in order. */
  eachInnerTag(sentence: Sentence<Tag>, visit: (tag: Tag) => void): void {
    for (let r = sentence.firstRun; r < sentence.lastRun; r++) {
      if (this.skipped(sentence, r)) continue;
      for (const tag of this.runReadings[r]!.tags) visit(tag);
    }
  }

  /** The sentence's words, in order. */
  wordsOf(sentence: Sentence<Tag>): ReadonlyArray<Word<Tag>> {
    const words: Array<Word<Tag>> = [...sentence.headWords];
    for (let r = sentence.firstRun; r < sentence.lastRun; r++) {
      if (this.skipped(sentence, r)) continue;
      const at = this.runBounds[2 * r]!;
      for (const w of this.runReadings[r]!.words) words.push({ text: w.text, start: at + w.from, end: at + w.to, tag: w.tag });
    }
    for (const word of sentence.tailWords) words.push(word);
    return words;
  }

  /**
   * The words of the part from..to of a run that the sentence's edge cuts, read as the
   * sentence read alone reads them (a surrogate pair the edge splits is no letter there).
   */
  private edgeWords(from: number, to: number, start: number, end: number): ReadonlyArray<Word<Tag>> {
    const out: Array<Word<Tag>> = [];
    for (const m of this.text.slice(from, to).matchAll(WORD)) {
      const at = from + m.index;
      const after = at + m[0].length;
      const before = at - 1 >= start ? this.text[at - 1] : undefined;
      const next = after < end ? this.text[after] : undefined;
      if (before !== undefined && next !== undefined && QUOTES.has(before) && QUOTES.has(next)) continue;
      for (const w of readRun(m[0], this.tagOf).words) out.push({ text: w.text, start: at + w.from, end: at + w.to, tag: w.tag });
    }
    return out;
  }

  /**
   * Where `sentence.flat` first holds `literal` (an offset in it), or -1, answered from the
   * literal's occurrences in the whole flat text: a slot is one literal, searched forward
   * only, so it costs one pass over the text however many sentences ask. A sentence asked
   * before one asked already (the one before it, read again) is searched alone.
   */
  indexIn(sentence: Sentence<Tag>, literal: string, slot: number): number {
    const from = sentence.flatStart;
    const to = sentence.flatEnd;
    if (to - from < literal.length) return -1;
    if (from < this.askedFrom[slot]!) return sentence.flat.indexOf(literal);
    this.askedFrom[slot] = from;
    let found = this.occurrence[slot]!;
    if (found === -1) return -1;
    if (found < from) {
      found = this.flatText.indexOf(literal, from);
      this.occurrence[slot] = found;
      if (found === -1) return -1;
    }
    return found + literal.length <= to ? found - from : -1;
  }

  /** Whether the slot's literal is known to occur nowhere past the sentences read so far (so no later sentence holds it). */
  exhausted(slot: number): boolean {
    return this.occurrence[slot] === -1;
  }

  /** Whether `sentence.flat` holds `literal` (indexIn's slots). */
  contains(sentence: Sentence<Tag>, literal: string, slot: number): boolean {
    return this.indexIn(sentence, literal, slot) !== -1;
  }
}
