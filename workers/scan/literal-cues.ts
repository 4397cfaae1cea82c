/**
 * Literal words found in one pass over a text, where each detector used to run an
 * alternation of its own over the whole text to decide whether its patterns need run. An
 * alternation of dozens of case-blind literals costs V8 several nanoseconds a character; a
 * walk down a trie of every detector's words costs a few for all of them together.
 *
 * The text is read as a "cue stream": ASCII letters in lower case, every run of whitespace
 * (as `\s` reads it) as one space, every other unit outside ASCII as 0. A word that a
 * case-blind pattern matches in the text is in the stream (a pattern without the `u` flag
 * matches an ASCII letter only with an ASCII letter), so a cue gate can only say "maybe"
 * where the old check said yes: it is put before that check, never in its place.
 *
 * The stream of the text scanned last is kept, so the detectors of one scan read the text
 * once between them.
 */

import { unitsOf } from './text-units.js';

const SPACE = 32;

/** Lower-cased ASCII, whitespace as a space, other units as 0: one table for every UTF-16 unit. */
const STREAM_CODE = new Uint8Array(0x10000);
for (let c = 1; c < 128; c++) STREAM_CODE[c] = c >= 65 && c <= 90 ? c + 32 : c;
for (let c = 0; c < 0x10000; c++) if (/\s/.test(String.fromCharCode(c))) STREAM_CODE[c] = SPACE;

/** Whether a UTF-16 unit is whitespace as `\s` reads it. */
export const isSpaceUnit = (c: number): boolean => STREAM_CODE[c] === SPACE;

const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;

let lastText: string | null = null;
let lastStream = new Uint8Array(1024);
let lastLength = 0;
let lastAscii = true;

function streamInto(units: Uint16Array, length: number, out: Uint8Array): { length: number; ascii: boolean } {
  let n = 0;
  let seen = 0;
  let wasSpace = 0;
  // Without a branch on the text: every code is written, and the position moves on unless a
  // space follows a space (the next code then overwrites it). Branching on each space, the
  // loop paid for a mispredicted branch every word or so.
  for (let i = 0; i < length; i++) {
    const c = units[i]!;
    seen |= c;
    const s = STREAM_CODE[c]!;
    const space = ((s ^ SPACE) - 1) >>> 31; // 1 where s is SPACE (s < 256), else 0
    out[n] = s;
    n += 1 - (space & wasSpace);
    wasSpace = space;
  }
  return { length: n, ascii: seen < 128 };
}

/** The cue stream of `text` (valid until the next call), its length, and whether the text is all ASCII. */
export function cueStream(text: string): { units: Uint8Array; length: number; ascii: boolean } {
  if (text !== lastText) {
    if (lastStream.length < text.length) lastStream = new Uint8Array(text.length * 2);
    const { length, ascii } = streamInto(unitsOf(text), text.length, lastStream);
    lastText = text;
    lastLength = length;
    lastAscii = ascii;
    gateMemo = -1;
  }
  return { units: lastStream, length: lastLength, ascii: lastAscii };
}

/**
 * Whether `text` is known to be all ASCII: it is the text whose cue stream is kept (the one
 * being scanned, once any gate has read it) and the stream found no unit outside ASCII.
 * False says nothing. Checks for units outside ASCII (look-alikes, invisible characters,
 * other scripts) ask this before running a pattern over the whole text: every claim paid
 * for several such patterns that the stream's pass had already answered.
 */
export function knownAscii(text: string): boolean {
  return text === lastText && lastAscii;
}

/**
 * An Aho-Corasick automaton of lower-case ASCII words over the cue stream: one table step a
 * unit, with no branch on the text but "does a word end here". A word may begin or end
 * with `\b` (written as in a pattern), to be found only at a word boundary as the stream
 * reads it.
 */
export class LiteralTrie {
  readonly words: readonly string[];
  private readonly lengths: Int32Array;
  private readonly classOf = new Uint8Array(128);
  private readonly classes: number;
  /**
   * The state after state s reads a unit of class k, at s * classes + k, stored as twice its
   * row's offset (so the next read is at step >>> 1 plus a class) plus 1 where a word ends in
   * it: the walk tests a bit a unit, where finding a state's words from its offset took a
   * division a unit, the walk's largest cost.
   */
  private readonly step: Int32Array;
  /** The first word ending in a state (by offset / classes; -1 for none), the others chained in `alsoEnds`. */
  private readonly endsHere: Int32Array;
  private readonly alsoEnds: number[] = [];
  private readonly outWord: number[] = [];
  private readonly startsWord: Uint8Array;
  private readonly endsWord: Uint8Array;

  constructor(words: readonly string[]) {
    const parsed = words.map((w) => {
      const start = w.startsWith('\\b');
      const end = w.endsWith('\\b');
      const body = w.slice(start ? 2 : 0, end ? -2 : undefined);
      if (body.length === 0 || !/^[\x20-\x7e]+$/.test(body) || body !== body.toLowerCase()) throw new Error(`literal cue ${JSON.stringify(w)}: lower-case printable ASCII only`);
      return { body, start, end };
    });
    this.words = parsed.map((p) => p.body);
    this.lengths = Int32Array.from(parsed, (p) => p.body.length);
    this.startsWord = Uint8Array.from(parsed, (p) => (p.start ? 1 : 0));
    this.endsWord = Uint8Array.from(parsed, (p) => (p.end ? 1 : 0));
    let classes = 1;
    for (const { body } of parsed) for (let i = 0; i < body.length; i++) if (this.classOf[body.charCodeAt(i)] === 0) this.classOf[body.charCodeAt(i)] = classes++;
    this.classes = classes;

    // The trie (goto), then failure links breadth first, then every state's full row.
    const goto: Int32Array[] = [new Int32Array(classes).fill(-1)];
    const own: number[][] = [[]];
    parsed.forEach(({ body }, id) => {
      let state = 0;
      for (let i = 0; i < body.length; i++) {
        const k = this.classOf[body.charCodeAt(i)]!;
        if (goto[state]![k] === -1) {
          goto[state]![k] = goto.length;
          goto.push(new Int32Array(classes).fill(-1));
          own.push([]);
        }
        state = goto[state]![k]!;
      }
      own[state]!.push(id);
    });
    const states = goto.length;
    const fail = new Int32Array(states);
    const step = new Int32Array(states * classes);
    const ends: number[][] = own.map((ids) => [...ids]);
    const queue: number[] = [];
    for (let k = 0; k < classes; k++) {
      const child = goto[0]![k]!;
      step[k] = child === -1 || k === 0 ? 0 : child * classes;
      if (child > 0 && k !== 0) queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let k = 0; k < classes; k++) {
        const child = goto[state]![k]!;
        const viaFail = step[fail[state]! * classes + k]! / classes;
        if (child === -1 || k === 0) step[state * classes + k] = viaFail * classes;
        else {
          fail[child] = viaFail;
          step[state * classes + k] = child * classes;
          queue.push(child);
        }
      }
    }
    this.endsHere = new Int32Array(states).fill(-1);
    for (let state = 0; state < states; state++) {
      let previous = -1;
      for (const id of ends[state]!) {
        const link = this.outWord.length;
        this.outWord.push(id);
        this.alsoEnds.push(-1);
        if (previous === -1) this.endsHere[state] = link;
        else this.alsoEnds[previous] = link;
        previous = link;
      }
    }
    for (let i = 0; i < step.length; i++) step[i] = step[i]! * 2 + (ends[step[i]! / classes]!.length > 0 ? 1 : 0);
    this.step = step;
  }

  /** Calls `found(id, start, end)` for every word at every place it occurs in the stream, in order of end. */
  walk(units: Uint8Array, length: number, found: (id: number, start: number, end: number) => void): void {
    const { step, classOf, classes, endsHere } = this;
    let s = 0;
    for (let i = 0; i < length; i++) {
      s = step[(s >>> 1) + classOf[units[i]!]!]!;
      if ((s & 1) === 0) continue;
      let link = endsHere[(s >>> 1) / classes]!;
      while (link !== -1) {
        const id = this.outWord[link]!;
        const start = i + 1 - this.lengths[id]!;
        if (this.atBoundaries(id, units, length, start, i + 1)) found(id, start, i + 1);
        link = this.alsoEnds[link]!;
      }
    }
  }

  /**
   * The words an alternation of them all, longest first, matches in the stream with a
   * global regular expression: at each place the longest word that starts there, the search
   * then going on after it. A word inside or across another's match is not found.
   */
  leftmostLongest(units: Uint8Array, length: number, found: (id: number) => void): void {
    const starts: number[] = [];
    const ids: number[] = [];
    this.walk(units, length, (id, start) => {
      starts.push(start);
      ids.push(id);
    });
    pickLeftmostLongest(starts, ids, this.lengths, found);
  }

  /** The length of word `id`. */
  lengthOf(id: number): number {
    return this.lengths[id]!;
  }

  private atBoundaries(id: number, units: Uint8Array, length: number, start: number, end: number): boolean {
    if (this.startsWord[id] === 1 && start > 0 && isWordCode(units[start]!) === isWordCode(units[start - 1]!)) return false;
    if (this.endsWord[id] === 1 && end < length && isWordCode(units[end - 1]!) === isWordCode(units[end]!)) return false;
    return true;
  }
}

/**
 * Occurrences (start, id) as a global alternation of the words, longest first, would match
 * them: at each place the longest word that starts there, the search then going on after it.
 */
function pickLeftmostLongest(starts: readonly number[], ids: readonly number[], lengths: ArrayLike<number>, found: (id: number) => void): void {
  if (starts.length === 0) return;
  const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]! || lengths[ids[b]!]! - lengths[ids[a]!]! || ids[a]! - ids[b]!);
  let free = 0;
  for (const i of order) {
    if (starts[i]! < free) continue;
    found(ids[i]!);
    free = starts[i]! + lengths[ids[i]!]!;
  }
}

// Gates: every detector's words in one trie, the words of gate g carrying bit g. The words
// of cue lists (cueList) follow them in the same trie, so one walk serves both.
const gateWords: string[] = [];
const gateBits: number[] = [];
let gateCount = 0;
let gateTrie: LiteralTrie | null = null;
let gateMemo = -1;
const listWords: string[] = [];
/** Where the kept text's cue-list words occur: starts, and ids among listWords (the first listCount). */
let listStarts = new Int32Array(64);
let listIds = new Int32Array(64);
let listCount = 0;

function gatesIn(text: string): number {
  // Asked a dozen times a scan: the kept text's answer without a call that returns an object.
  if (text === lastText && gateMemo !== -1) return gateMemo;
  const { units, length } = cueStream(text);
  if (gateMemo !== -1) return gateMemo;
  gateTrie ??= new LiteralTrie([...gateWords, ...listWords]);
  const gated = gateWords.length;
  let mask = 0;
  listCount = 0;
  gateTrie.walk(units, length, (id, start) => {
    if (id < gated) mask |= gateBits[id]!;
    else {
      if (listCount === listIds.length) {
        listStarts = Int32Array.from({ length: listCount * 2 }, (_, k) => listStarts[k] ?? 0);
        listIds = Int32Array.from({ length: listCount * 2 }, (_, k) => listIds[k] ?? 0);
      }
      listStarts[listCount] = start;
      listIds[listCount++] = id - gated;
    }
  });
  gateMemo = mask;
  return mask;
}

/** Literal words found in order of place, as a global alternation of them finds them. */
export interface CueList {
  readonly words: readonly string[];
  /**
   * Calls `found(id)` for each word of the list that a global alternation of them all,
   * longest first, matches in the cue stream of `text`: from the scan's one walk where
   * `text` is the text whose stream is kept, else from a walk of its own.
   */
  leftmostLongest(text: string, found: (id: number) => void): void;
}

export function cueList(words: readonly string[]): CueList {
  const from = listWords.length;
  listWords.push(...words);
  gateTrie = null;
  gateMemo = -1;
  const own = new LiteralTrie(words);
  const lengths = Int32Array.from(words, (_, id) => own.lengthOf(id));
  return {
    words,
    leftmostLongest(text, found) {
      if (text !== lastText) {
        const { units, length } = derivedStream(text);
        own.leftmostLongest(units, length, found);
        return;
      }
      gatesIn(text);
      const starts: number[] = [];
      const ids: number[] = [];
      for (let k = 0; k < listCount; k++) {
        const id = listIds[k]! - from;
        if (id < 0 || id >= words.length) continue;
        starts.push(listStarts[k]!);
        ids.push(id);
      }
      pickLeftmostLongest(starts, ids, lengths, found);
    },
  };
}

export interface CueGate {
  /** The words, as given. */
  readonly words: readonly string[];
  /** The patterns the gate stands before: where one of them matches a text, the gate must say maybe (tested). */
  readonly guards: readonly RegExp[];
  /**
   * False only where none of the gate's words is in the text's cue stream: then no pattern
   * whose every match holds one of them (read case-blind) can match the text.
   */
  mayOccurIn(text: string): boolean;
}

/**
 * A gate of literal words (lower-case ASCII, optionally `\b` at either end), answered from
 * the one walk of the scanned text that serves every gate.
 */
const gates: CueGate[] = [];

/** Every gate made so far, for the test that holds each to its guards. */
export function cueGates(): readonly CueGate[] {
  return gates;
}

export function cueGate(words: readonly string[], guards: readonly RegExp[]): CueGate {
  if (gateCount === 31) throw new Error('literal-cues: at most 31 gates');
  const bit = 1 << gateCount++;
  for (const w of words) {
    gateWords.push(w);
    gateBits.push(bit);
  }
  gateTrie = null;
  gateMemo = -1;
  const gate: CueGate = { words, guards, mayOccurIn: (text) => (gatesIn(text) & bit) !== 0 };
  gates.push(gate);
  return gate;
}

/** The cue stream of a text the scan derived (a folded, lower-cased or respelled copy): not kept. */
export function derivedStream(text: string): { units: Uint8Array; length: number } {
  const units = new Uint8Array(text.length);
  const source = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) source[i] = text.charCodeAt(i);
  return { units, length: streamInto(source, text.length, units).length };
}
