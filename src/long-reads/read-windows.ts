import type { RowidWindow } from '../projections/rowid-window.js';
import type { LongRead } from './long-reads.js';

/** Rowids one chunk of a walk over a view spans: a statement over them stays short however few rows it keeps. */
export const ROWID_WINDOW = 1_000;
/** Items (rows read whole, ids looked up) one chunk shapes or looks up. */
export const PIECE = 250;

/**
 * The view's rowids from `last` down to 1 (`newest`) or from 1 up to `last`, a window a chunk:
 * the read gives up its turn between two windows. Breaking out of the loop ends the walk.
 */
export async function* rowidWindows(read: LongRead, last: number, order: 'newest' | 'oldest', size = ROWID_WINDOW): AsyncGenerator<RowidWindow> {
  const count = Math.ceil(last / size);
  for (let i = 0; i < count; i++) {
    if (i > 0) await read.next();
    yield order === 'newest' ? { lo: Math.max(1, last - (i + 1) * size + 1), hi: last - i * size } : { lo: i * size + 1, hi: Math.min(last, (i + 1) * size) };
  }
}

/** `items` a piece a chunk, the read giving up its turn between two pieces. */
export async function* pieces<T>(read: LongRead, items: readonly T[], size = PIECE): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await read.next();
    yield items.slice(i, i + size);
  }
}

/** `shape` over `items` a piece a chunk, in order. */
export async function mapInPieces<T, U>(read: LongRead, items: readonly T[], shape: (item: T) => U, size = PIECE): Promise<U[]> {
  const out: U[] = [];
  for await (const piece of pieces(read, items, size)) for (const item of piece) out.push(shape(item));
  return out;
}
