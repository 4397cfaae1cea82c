/**
 * Payloads hidden in an encoding, decoded and scanned again: base64, hex (plain and `\x41`),
 * character codes (`[119,104,…]`, `chr(115)+chr(121)`), HTML entities, percent-encoding,
 * `\u0041` escapes, Morse code, markers splitting words (`Exec<SPLIT>ute`), and rot13 or
 * reversed text where the text names rot13 or holds an override's words so spelled. An agent decodes these as readily
 * as it reads plain text, so "SWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM=" is the same
 * instruction as "Ignore all previous instructions". Only what decodes to readable text is
 * scanned (hashes, keys and images decode to bytes, not words), one level deep and then once
 * more, and the finding marks the encoded span in the original.
 */
import { findAttackLike, attackModel } from './attack-classifier.js';
import type { AttackModel } from './attack-model.js';
import { findCommandsToRun } from './commands-to-run.js';
import { judgeCommands, type CommandHit } from './executable.js';
import type { Finding } from './finding.js';
import { isFlagging } from './finding.js';
import { findInjections } from './injection.js';
import { cueGate } from './literal-cues.js';
import { maskExcerpt } from './mask.js';
import { unitsOf } from './text-units.js';

interface Encoded {
  encoding: string;
  start: number;
  end: number;
  decoded: string;
}

const BASE64_SHAPE = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$|^[A-Za-z0-9_-]+$/;
const RUN_MIN = 16;

function isBase64Unit(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 95 || c === 45 || c === 61;
}

function isHexUnit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

const isHexOrSeparator = (c: number): boolean => isHexUnit(c) || c === 32 || c === 58;

const BASE64 = 1;
const HEX = 2;
/** For each ASCII unit: BASE64 if isBase64Unit, HEX if isHexOrSeparator (no unit outside ASCII is either). */
const RUN_UNIT = new Uint8Array(128);
for (let c = 0; c < 128; c++) RUN_UNIT[c] = (isBase64Unit(c) ? BASE64 : 0) | (isHexOrSeparator(c) ? HEX : 0);

/**
 * The runs of base64 units, and of hex digits with single separators (`de ad be ef`,
 * `de:ad:be:ef`), of at least RUN_MIN units, found in one pass over the text: a pattern
 * that tries a long character class at every position of every claim costs ten times as much.
 */
export function encodedRuns(text: string): { base64: Array<[number, number]>; hex: Array<[number, number]> } {
  const base64: Array<[number, number]> = [];
  const hex: Array<[number, number]> = [];
  // The length of the run each kind is in so far. One table read a unit, and no branch on the
  // text but "a long run ends here", which is rare: branching on every unit's class, the loop
  // paid for a mispredicted branch at most letters of English (a-f are hex, g-z are not).
  let inBase64 = 0;
  let inHex = 0;
  const units = unitsOf(text);
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = units[i]!;
    const kind = c < 128 ? RUN_UNIT[c]! : 0;
    const base64Run = (inBase64 + 1) & -(kind & BASE64);
    if (inBase64 >= RUN_MIN && base64Run === 0) base64.push([i - inBase64, i]);
    inBase64 = base64Run;
    const hexRun = (inHex + 1) & -((kind & HEX) >>> 1);
    if (inHex >= RUN_MIN && hexRun === 0) hex.push([i - inHex, i]);
    inHex = hexRun;
  }
  if (inBase64 >= RUN_MIN) base64.push([length - inBase64, length]);
  if (inHex >= RUN_MIN) hex.push([length - inHex, length]);
  return { base64, hex };
}

const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){6,}/g;
const HEX_PAIRS = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[ :]?){8,}(?![0-9a-fA-F])/g;
const CHAR_CODE_LIST = /(?:fromCharCode|chr|char|\bmap)\b[^\n]{0,40}?[[(]\s*((?:\d{2,3}\s*,\s*){3,}\d{2,3})\s*[\])]|[[(]\s*((?:\d{2,3}\s*,\s*){3,}\d{2,3})\s*[\])][^\n]{0,60}?fromCharCode/g;
const CHR_SUM = /\bchr\s*\(\s*\d{2,3}\s*\)(?:\s*\+\s*chr\s*\(\s*\d{2,3}\s*\)){3,}/g;
const ENTITIES = /(?:&#(?:x[0-9a-fA-F]{1,6}|\d{1,7});){3,}/g;
const PERCENT = /(?:%[0-9a-fA-F]{2}){4,}/g;
const UNICODE_ESCAPES = /(?:\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}){3,}/g;
// Words of an override spelled backwards or in rot13: a cheap sign the text is worth decoding.
const REVERSED_CUE = /\b(?:erongi|dragersid|tegrof|snoitcurtsni|noitcurtsni|tpmorp|laever|edirrevo)\b/i;
const ROT13_CUE = /\b(?:vtaber|qvfertneq|sbetrg|vafgehpgvbaf?|cebzcg|erirny|birePvqr|birevqr)\b/i;
// Morse: at least five letters of dots and dashes between spaces (or / for a word break).
const MORSE = /(?:[.\-]{1,7}[ \t]+(?:\/[ \t]+)?){4,}[.\-]{1,7}/g;
const MORSE_LETTERS: Record<string, string> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i', '.---': 'j',
  '-.-': 'k', '.-..': 'l', '--': 'm', '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r', '...': 's', '-': 't',
  '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z', '-----': '0', '.----': '1', '..---': '2',
  '...--': '3', '....-': '4', '.....': '5', '-....': '6', '--...': '7', '---..': '8', '----.': '9', '.-.-.-': '.', '-..-.': '/',
};
// Tokens dropped between the letters of a word so that no phrase matches: "Exec<SPLIT>ute".
const SPLIT_MARKER = /(?<=\w)<[A-Z_]{2,16}>(?=\w)/g;

function fromMorse(s: string): string {
  return s
    .trim()
    .split(/[ \t]+\/[ \t]+|[ \t]{3,}/)
    .map((word) => word.split(/[ \t]+/).map((letter) => MORSE_LETTERS[letter] ?? '?').join(''))
    .join(' ');
}

const CODE_LIST_CUE = /fromCharCode|chr\s*\(|char|map/i;
const NAMES_ROT13 = /\brot[\s-]?13\b|\bcaesar\b/i;

// The words of the cues above, read in the scan's one pass over the text (literal-cues.ts),
// where a run of whitespace reads as one space: the patterns run only where these say maybe.
const CODE_LIST_GATE = cueGate(['fromcharcode', 'chr(', 'chr (', 'char', 'map'], [CODE_LIST_CUE]);
const ROT13_GATE = cueGate([
  '\\brot13\\b', '\\brot 13\\b', '\\brot-13\\b', '\\bcaesar\\b',
  ...['vtaber', 'qvfertneq', 'sbetrg', 'vafgehpgvba', 'vafgehpgvbaf', 'cebzcg', 'erirny', 'birepvqr', 'birevqr'].map((w) => `\\b${w}\\b`),
], [NAMES_ROT13, ROT13_CUE]);
const REVERSED_GATE = cueGate(['erongi', 'dragersid', 'tegrof', 'snoitcurtsni', 'noitcurtsni', 'tpmorp', 'laever', 'edirrevo'].map((w) => `\\b${w}\\b`), [REVERSED_CUE]);

/** Mostly letters, digits, spaces and punctuation: text a reader would read as words. */
function readable(s: string): boolean {
  if (s.length < 6) return false;
  let good = 0;
  let letters = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c < 32 && c !== 10 && c !== 13 && c !== 9) || (c >= 0x7f && c < 0xa0)) continue;
    good++;
    if (/\p{L}/u.test(ch)) letters++;
  }
  const units = [...s].length;
  return good / units >= 0.95 && letters / units >= 0.4 && /\s|[.;:()'"`/]/.test(s);
}

const utf8 = new TextDecoder('utf-8');

function fromBase64(s: string): string {
  const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return utf8.decode(bytes);
}

/** Codes handed to String.fromCodePoint at a time: spread whole, a run of 100,000 or more overflowed the stack and failed the scan. */
const CODES_AT_ONCE = 8192;

function fromCodes(codes: number[]): string {
  if (!codes.every((c) => c >= 9 && c <= 0x10ffff)) return '';
  let text = '';
  for (let i = 0; i < codes.length; i += CODES_AT_ONCE) text += String.fromCodePoint(...codes.slice(i, i + CODES_AT_ONCE));
  return text;
}

const rot13 = (s: string): string =>
  s.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

function encodedSpans(text: string): Encoded[] {
  const out: Encoded[] = [];
  const push = (encoding: string, start: number, end: number, decoded: string): void => {
    if (readable(decoded)) out.push({ encoding, start, end, decoded });
  };
  const found = encodedRuns(text);
  for (const [start, end] of found.base64) {
    const run = text.slice(start, end);
    // A long identifier is base64-shaped too; decoding it costs little and `readable` decides.
    if (BASE64_SHAPE.test(run)) push('base64', start, end, fromBase64(run));
  }
  for (const [start, end] of found.hex) {
    // A run may start inside a word ("Data: 4967…" runs from its "a"): the pairs are found in it.
    for (const m of text.slice(start, end).matchAll(HEX_PAIRS)) {
      // From the first separator of the trailing run only: from every one, each read the run to its end.
      const run = m[0].replace(/(?<![ :])[ :]+$/, '');
      push('hex', start + m.index, start + m.index + run.length, utf8.decode(Buffer.from(run.replace(/[ :]/g, ''), 'hex')));
    }
  }
  if (text.includes('\\x')) {
    for (const m of text.matchAll(HEX_ESCAPES)) {
      push('hex escapes', m.index, m.index + m[0].length, utf8.decode(Buffer.from(m[0].replace(/\\x/g, ''), 'hex')));
    }
  }
  const codes = CODE_LIST_GATE.mayOccurIn(text) && CODE_LIST_CUE.test(text);
  for (const m of codes ? text.matchAll(CHAR_CODE_LIST) : []) {
    const list = (m[1] ?? m[2])!;
    push('character codes', m.index, m.index + m[0].length, fromCodes(list.split(',').map((n) => Number(n.trim()))));
  }
  for (const m of codes ? text.matchAll(CHR_SUM) : []) {
    push('character codes', m.index, m.index + m[0].length, fromCodes([...m[0].matchAll(/\d+/g)].map((d) => Number(d[0]))));
  }
  for (const m of text.includes('&#') ? text.matchAll(ENTITIES) : []) {
    const codes = [...m[0].matchAll(/&#(x?)([0-9a-fA-F]+);/g)].map((e) => parseInt(e[2]!, e[1] ? 16 : 10));
    push('HTML entities', m.index, m.index + m[0].length, fromCodes(codes));
  }
  for (const m of text.includes('%') ? text.matchAll(PERCENT) : []) {
    let decoded = '';
    try {
      decoded = decodeURIComponent(m[0]);
    } catch {
      decoded = '';
    }
    push('percent-encoding', m.index, m.index + m[0].length, decoded);
  }
  for (const m of text.includes('\\u') ? text.matchAll(UNICODE_ESCAPES) : []) {
    const codes = [...m[0].matchAll(/\\u\{?([0-9a-fA-F]+)\}?/g)].map((e) => parseInt(e[1]!, 16));
    push('unicode escapes', m.index, m.index + m[0].length, fromCodes(codes));
  }
  if (ROT13_GATE.mayOccurIn(text) && (NAMES_ROT13.test(text) || ROT13_CUE.test(text))) push('rot13', 0, text.length, rot13(text));
  if (REVERSED_GATE.mayOccurIn(text) && REVERSED_CUE.test(text)) push('reversed text', 0, text.length, [...text].reverse().join(''));
  if (text.includes('<') && SPLIT_MARKER.test(text)) push('split markers', 0, text.length, text.replace(SPLIT_MARKER, ''));
  if (text.includes('.-') || text.includes('-.')) {
    for (const m of text.matchAll(MORSE)) push('Morse code', m.index, m.index + m[0].length, fromMorse(m[0]));
  }
  return out;
}

/** What the decoded text holds, as a scan of it finds it (no deeper than `depth`). */
function decodedFindings(e: Encoded, depth: number, model: AttackModel): Finding[] {
  const decoded = e.decoded;
  // rot13 and reversal are applied to a whole text, most of which then reads as gibberish:
  // only exact phrases and commands count there, never the model's reading.
  const read = e.encoding === 'rot13' || e.encoding === 'reversed text' ? [] : findAttackLike(decoded, model);
  const found = [...findInjections(decoded), ...findCommandsToRun(decoded, 'memory'), ...read];
  if (depth > 0) found.push(...findEncodedPayloads(decoded, model, 'memory', depth - 1));
  return found.filter((f) => isFlagging(f.severity));
}

// An order to run what follows on the same line: "Execute: <Morse>", "Decode and run: <base64>".
// Each run of spaces read by one quantifier: `\s*(?:this)?\s*:?\s*` split a long run every way before failing.
const ORDER_BEFORE = /(?:\brun|\bexecute|\bexec|\beval\w*|\bdecode\s+(?:and|then)\s+(?:run|execute|follow))\s*(?:(?:this|it)\s*)?(?:[:\-–—]\s*)?(?:[`'"]\s*)?$/i;

function orderedToRun(text: string, e: Encoded): CommandHit | null {
  if (e.start === 0 && e.end === text.length) return null;
  const before = text.slice(Math.max(0, text.lastIndexOf('\n', e.start - 1) + 1, e.start - 60), e.start);
  if (!ORDER_BEFORE.test(before)) return null;
  return {
    kind: 'executable.decode-execute',
    detail: `An order to run something given in ${e.encoding}, so what would run is not readable.`,
    start: e.start - before.length + before.search(/\S/),
    end: e.end,
  };
}

export function findEncodedPayloads(text: string, model: AttackModel = attackModel(), contentType?: string, depth = 1): Finding[] {
  const findings: Finding[] = [];
  const orders: CommandHit[] = [];
  for (const e of encodedSpans(text)) {
    const order = orderedToRun(text, e);
    if (order !== null) orders.push(order);
    const inner = decodedFindings(e, depth, model);
    if (inner.length === 0) continue;
    const kinds = [...new Set(inner.map((f) => f.kind))].join(', ');
    findings.push({
      kind: 'injection.encoded-payload',
      severity: 'high',
      detail: `Text hidden in ${e.encoding} that, decoded, holds what the scanner flags (${kinds}).`,
      start: e.start,
      end: e.end,
      excerpt: maskExcerpt(text.slice(e.start, e.end)),
    });
  }
  return [...findings, ...judgeCommands(text, contentType, orders)];
}
