import type { Caller } from '../access/caller.js';
import { invalidParams } from '../gate-error.js';
import { visibleRowsClause } from '../access/visible-rows.js';
import type { GraphBrief, GraphRow } from '../projections/graph-reads.js';
import type { AccessPart } from '../access/access-part.js';
import type { LongRead } from '../long-reads/long-reads.js';
import { pieces, rowidWindows } from '../long-reads/read-windows.js';

/** The rows a graph answer serves, and what it says about the ones it leaves out. */
export interface Selection {
  rows: GraphRow[];
  /** Visible rows per state over the whole selection before the states filter, so a console can offer each state with its size. */
  counts: Record<string, number>;
  /** Visible rows matching every filter, served or not. */
  total: number;
  truncated: boolean;
}

function countsOf(states: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of states) counts[s] = (counts[s] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The whole-store graph: visible rows (C6) of the named spaces and kinds, newest first
 * (ingest order), cut at the limit. `states` undefined means every state. The view is
 * walked a window of rowids a chunk over the read's snapshot: the counts cover it all.
 */
export async function spaceSelection(
  access: AccessPart,
  read: LongRead,
  caller: Caller,
  q: { spaces: readonly string[]; kinds?: readonly string[]; states?: readonly string[]; limit: number },
): Promise<Selection> {
  const filter = { visible: visibleRowsClause({ store: read.store, access }, caller), spaces: q.spaces, kinds: q.kinds };
  const countIn = read.store.graph.stateCounts(filter);
  const rowsIn = read.store.graph.newestRows(filter, q.states);
  const counted: string[] = [];
  const rows: GraphRow[] = [];
  const tally: Record<string, number> = {};
  for await (const window of rowidWindows(read, read.store.artifacts.lastRowid(), 'newest')) {
    for (const { state, n } of countIn(window)) {
      if (tally[state] === undefined) counted.push(state);
      tally[state] = (tally[state] ?? 0) + n;
    }
    if (rows.length < q.limit) rows.push(...rowsIn(window, q.limit - rows.length));
  }
  const counts = Object.fromEntries(counted.sort().map((s) => [s, tally[s]!]));
  const wanted = q.states === undefined ? Object.keys(counts) : q.states;
  const total = [...new Set(wanted)].reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  return { rows, counts, total, truncated: total > rows.length };
}

/**
 * One work area's graph: its visible rows, then the visible rows one declared relation
 * away from any of them (either direction, any space), each part newest first. The area's
 * rows fill the limit before its neighbours. An area with no visible row is refused in
 * the same words whether nobody wrote into it or the viewer may see none of it, so the
 * refusal never tells that someone else's held rows are there.
 */
export async function areaSelection(
  access: AccessPart,
  read: LongRead,
  caller: Caller,
  q: { space: string; workarea: string; states?: readonly string[]; limit: number },
): Promise<Selection> {
  const { store } = read;
  const briefsIn = store.graph.areaBriefs(visibleRowsClause({ store, access }, caller), q.space, q.workarea);
  const area: GraphBrief[] = [];
  for await (const window of rowidWindows(read, store.artifacts.lastRowid(), 'newest')) area.push(...briefsIn(window));
  if (area.length === 0) {
    throw invalidParams(`work area ${q.workarea} in space ${q.space} has no row you can see`, { field: 'workarea' });
  }
  const inArea = new Set(area.map((r) => r.artifact_id));
  const outside = new Set<string>();
  for await (const piece of pieces(read, [...inArea])) for (const id of store.relations.relatedTo(piece)) if (!inArea.has(id)) outside.add(id);
  const foreign: GraphBrief[] = [];
  for await (const piece of pieces(read, [...outside])) foreign.push(...store.graph.briefsById(piece).filter((r) => access.visibility.canRead(caller, r)));
  foreign.sort((a, b) => b.rowid - a.rowid);
  const all = [...area, ...foreign];
  const wanted = q.states === undefined ? null : new Set(q.states);
  const matching = wanted === null ? all : all.filter((r) => wanted.has(r.state));
  const served = matching.slice(0, q.limit);
  const byId = new Map<string, GraphRow>();
  for await (const piece of pieces(read, served)) for (const r of store.graph.rowsById(piece.map((b) => b.artifact_id))) byId.set(r.artifact_id, r);
  return {
    rows: served.map((r) => byId.get(r.artifact_id)!),
    counts: countsOf(all.map((r) => r.state)),
    total: matching.length,
    truncated: matching.length > served.length,
  };
}
