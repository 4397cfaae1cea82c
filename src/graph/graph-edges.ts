import type { GraphRow } from '../projections/graph-reads.js';
import type { Store } from '../store/store.js';

/**
 * Edges and pins among the served nodes only. Both ends of an edge are then rows the
 * viewer may read, so no edge names a row it may not see, and a consumer never meets an
 * edge to a node it was not given. Declared relations come first in the order they were
 * made, then derives_from citations (kind `derives_from`) in node order.
 */
export function graphEdges(house: { readonly store: Store }, rows: readonly GraphRow[]) {
  const ids = new Set(rows.map((r) => r.artifact_id));
  const relations = house.store.relations.relationsOfChildren([...ids]);
  const edges: Record<string, unknown>[] = relations
    .filter((e) => ids.has(e.parent))
    .map((e) => ({ child: e.child, parent: e.parent, kind: e.kind, by: e.by, ts: e.ts, event_id: e.event_id, group_id: e.group_id }));
  for (const r of rows) {
    for (const parent of JSON.parse(r.derives_from) as string[]) {
      if (ids.has(parent)) edges.push({ child: r.artifact_id, parent, kind: 'derives_from', ts: r.ts });
    }
  }
  const pins = house.store.relations.anyPins()
    ? house.store.relations
        .pins()
        .filter((p) => ids.has(p.artifact_id))
        .map((p) => ({ artifact_id: p.artifact_id, by: p.by, ts: p.ts, event_id: p.event_id }))
    : [];
  return { edges, pins };
}
