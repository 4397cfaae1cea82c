/**
 * A run of the artifacts view's rowids, both ends included: a long read walks a view one
 * window a chunk (src/long-reads/), so no statement reads more than a window's rows however
 * few of them it keeps.
 */
export interface RowidWindow {
  lo: number;
  hi: number;
}

/** The SQL term of a window over a table's rowid (`a.` when the table is aliased), and its two arguments after it. */
export const inWindow = (alias = '') => `${alias}rowid BETWEEN ? AND ?`;
export const windowArgs = (w: RowidWindow): [number, number] => [w.lo, w.hi];

/**
 * The artifacts view as a window's statement reads it: by rowid alone. With an index the
 * planner may read every row of a state or a space and keep the window's, so a statement
 * would no longer be bounded by its window.
 */
export const WALKED = 'artifacts NOT INDEXED';
