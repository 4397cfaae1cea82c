import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { proseLines } from './markdown-anchors.js';

/**
 * Figures in docs/ that name where they come from (docs/architecture.md, "Figures in the
 * documents"): a number followed by `<!-- figure FILE POINTER -->`, FILE a results file of
 * bench/results/ and POINTER a JSON Pointer into it (`/public/committed/jailbreaks/rate`).
 * A number ending in `%` is the value times 100. Bold around the number is allowed. Marks in
 * code (fences, backticks) are examples and are not read.
 */
export const FIGURE_MARK = /(?<![\w.,])(?:\*\*)?(-?[0-9][0-9,]*(?:\.[0-9]+)?)(%?)(?:\*\*)?\s*<!-- figure (\S+\.json) (\/\S*) -->/g;

/** Every mark, read or not: a mark with no number right before it is an error, never skipped. */
const ANY_MARK = /<!-- figure /g;

export interface MarkedFigure {
  /** `file:line`. */
  where: string;
  /** The number as written, or null for a mark with no number right before it. */
  shown: string | null;
  percent: boolean;
  results: string;
  pointer: string;
}

export function markedFigures(file: string, label: string): MarkedFigure[] {
  const found: MarkedFigure[] = [];
  // Prose only: a mark inside code (a fence or backticks) is an example of the syntax.
  proseLines(readFileSync(file, 'utf8')).forEach((line, i) => {
    const read = [...line.matchAll(FIGURE_MARK)];
    for (const m of read) found.push({ where: `${label}:${i + 1}`, shown: m[1]!, percent: m[2] === '%', results: m[3]!, pointer: m[4]! });
    const marks = [...line.matchAll(ANY_MARK)].length;
    for (let k = read.length; k < marks; k++) found.push({ where: `${label}:${i + 1}`, shown: null, percent: false, results: '', pointer: '' });
  });
  return found;
}

/** The value at a JSON Pointer (RFC 6901: `/a/b`, `~1` for `/`, `~0` for `~`), or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let at: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object' || !(key in at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * Why a marked figure disagrees with its results file, or null when it agrees: the value,
 * rounded as the document shows it (as many decimals), equals the figure.
 */
export function figureProblem(figure: MarkedFigure, resultsDir: string): string | null {
  if (figure.shown === null) return `${figure.where}: a figure mark with no number right before it`;
  const path = join(resultsDir, figure.results);
  if (!existsSync(path)) return `${figure.where}: ${figure.results} is not in bench/results/`;
  const value = atPointer(JSON.parse(readFileSync(path, 'utf8')), figure.pointer);
  if (typeof value !== 'number') return `${figure.where}: ${figure.results}${figure.pointer} is ${value === undefined ? 'absent' : `not a number (${JSON.stringify(value)})`}`;
  const shown = Number(figure.shown.replace(/,/g, ''));
  const decimals = figure.shown.includes('.') ? figure.shown.length - figure.shown.indexOf('.') - 1 : 0;
  const actual = figure.percent ? value * 100 : value;
  // Half a unit of the last decimal shown, and a hair for binary fractions.
  if (Math.abs(actual - shown) > 0.5 * 10 ** -decimals + 1e-9) return `${figure.where}: shows ${figure.shown}${figure.percent ? '%' : ''} where ${figure.results}${figure.pointer} is ${value}`;
  return null;
}
