import type { GraphRow } from '../projections/graph-reads.js';
import type { RelationRow } from '../projections/relation-reads.js';
import type { LongRead } from '../long-reads/long-reads.js';
import { pieces } from '../long-reads/read-windows.js';

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The relations view's own order (seq, child, parent, kind), kept when the children are read a piece at a time. */
const relationOrder = (a: RelationRow, b: RelationRow) => a.seq - b.seq || byCode(a.child, b.child) || byCode(a.parent, b.parent) || byCode(a.kind, b.kind);

/**
 * Edges and pins among the served nodes only. Both ends of an edge are then rows the
 * viewer may read, so no edge names a row it may not see, and a consumer never meets an
 * edge to a node it was not given. Declared relations come first in the order they were
 * made, then derives_from citations (kind `derives_from`) in node order. The relations are
 * read a piece of the nodes a chunk, over the read's snapshot.
 */
export async function graphEdges(read: LongRead, rows: readonly GraphRow[]) {
  const { store } = read;
  const ids = new Set(rows.map((r) => r.artifact_id));
  const relations: RelationRow[] = [];
  for await (const piece of pieces(read, [...ids])) relations.push(...store.relations.relationsOfChildren(piece));
  const edges: Record<string, unknown>[] = relations
    .filter((e) => ids.has(e.parent))
    .sort(relationOrder)
    .map((e) => ({ child: e.child, parent: e.parent, kind: e.kind, by: e.by, ts: e.ts, event_id: e.event_id, group_id: e.group_id }));
  for (const r of rows) {
    for (const parent of JSON.parse(r.derives_from) as string[]) {
      if (ids.has(parent)) edges.push({ child: r.artifact_id, parent, kind: 'derives_from', ts: r.ts });
    }
  }
  const pins = store.relations.anyPins()
    ? store.relations
        .pins()
        .filter((p) => ids.has(p.artifact_id))
        .map((p) => ({ artifact_id: p.artifact_id, by: p.by, ts: p.ts, event_id: p.event_id }))
    : [];
  return { edges, pins };
}
