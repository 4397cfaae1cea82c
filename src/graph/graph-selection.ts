import type { Caller } from '../access/caller.js';
import { invalidParams } from '../gate-error.js';
import { visibleRowsClause } from '../access/visible-rows.js';
import type { GraphBrief, GraphRow } from '../projections/graph-reads.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';

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
 * (ingest order), cut at the limit. `states` undefined means every state.
 */
export function spaceSelection(
  house: { readonly store: Store; readonly access: AccessPart },
  caller: Caller,
  q: { spaces: readonly string[]; kinds?: readonly string[]; states?: readonly string[]; limit: number },
): Selection {
  const filter = { visible: visibleRowsClause(house, caller), spaces: q.spaces, kinds: q.kinds };
  const counts = house.store.graph.stateCounts(filter);
  const wanted = q.states === undefined ? Object.keys(counts) : q.states;
  const total = [...new Set(wanted)].reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  const rows = house.store.graph.newestRows(filter, q.states, q.limit);
  return { rows, counts, total, truncated: total > rows.length };
}

/**
 * One work area's graph: its visible rows, then the visible rows one declared relation
 * away from any of them (either direction, any space), each part newest first. The area's
 * rows fill the limit before its neighbours. An area with no visible row is refused in
 * the same words whether nobody wrote into it or the viewer may see none of it, so the
 * refusal never tells that someone else's held rows are there.
 */
export function areaSelection(
  house: { readonly store: Store; readonly access: AccessPart },
  caller: Caller,
  q: { space: string; workarea: string; states?: readonly string[]; limit: number },
): Selection {
  const visible = visibleRowsClause(house, caller);
  const area = house.store.graph.areaBriefs(visible, q.space, q.workarea);
  if (area.length === 0) {
    throw invalidParams(`work area ${q.workarea} in space ${q.space} has no row you can see`, { field: 'workarea' });
  }
  const inArea = new Set(area.map((r) => r.artifact_id));
  const outside = house.store.relations.relatedTo([...inArea]).filter((id) => !inArea.has(id));
  const foreign = (outside.length === 0 ? ([] as GraphBrief[]) : house.store.graph.briefsById(outside))
    .filter((r) => house.access.visibility.canRead(caller, r))
    .sort((a, b) => b.rowid - a.rowid);
  const all = [...area, ...foreign];
  const wanted = q.states === undefined ? null : new Set(q.states);
  const matching = wanted === null ? all : all.filter((r) => wanted.has(r.state));
  const served = matching.slice(0, q.limit);
  const byId = new Map(house.store.graph.rowsById(served.map((r) => r.artifact_id)).map((r) => [r.artifact_id, r]));
  return {
    rows: served.map((r) => byId.get(r.artifact_id)!),
    counts: countsOf(all.map((r) => r.state)),
    total: matching.length,
    truncated: matching.length > served.length,
  };
}
