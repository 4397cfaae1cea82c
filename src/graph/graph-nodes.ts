import type { Caller } from '../access/caller.js';
import { isPromoted } from '../domain/states.js';
import { citedBy } from './cited-by.js';
import type { GraphRow } from '../projections/graph-reads.js';
import { nodeLabel } from '../domain/node-label.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';

export interface AreaFocus {
  space: string;
  workarea: string;
}

/** Audiences each row is hidden for; read in one go, and skipped when no hide stands anywhere. */
function hiddenFor(house: { readonly store: Store }, rows: readonly GraphRow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!house.store.relations.anyHides()) return out;
  const promoted = rows.filter((r) => isPromoted(r.state)).map((r) => r.artifact_id);
  const hides = house.store.relations.hidesAmong(promoted);
  for (const h of hides) out.set(h.artifact_id, [...(out.get(h.artifact_id) ?? []), h.audience]);
  return out;
}

/**
 * The graph's nodes, in the order given. Every node says what and whose it is; only a
 * promoted row (what every reader may be served) carries its label and source_uri. A
 * question lists the readable rows citing it; with a work area in focus each node says
 * whether it lies outside that area.
 */
export function graphNodes(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, rows: readonly GraphRow[], focus?: AreaFocus) {
  const hides = hiddenFor(house, rows);
  return rows.map((r) => {
    const node: Record<string, unknown> = {
      artifact_id: r.artifact_id,
      state: r.state,
      space: r.space,
      workarea: r.workarea,
      producer: r.producer_name === null ? null : { name: r.producer_name, kind: r.producer_kind },
      kind: r.kind,
      content_type: r.content_type,
      addressed_to: r.addressed_to === null ? null : (JSON.parse(r.addressed_to) as unknown),
      writer_kind: r.writer_kind,
      ts: r.ts,
    };
    if (isPromoted(r.state)) {
      node['label'] = r.masked === null ? null : nodeLabel(r.kind, r.masked.toString('utf8'));
      node['source_uri'] = r.source_uri;
      const hidden = hides.get(r.artifact_id);
      if (hidden !== undefined) node['hidden_for'] = hidden;
    }
    if (r.kind === 'question') node['cited_by'] = citedBy(house, caller, r.artifact_id);
    if (focus !== undefined) node['foreign'] = r.space !== focus.space || r.workarea !== focus.workarea;
    return node;
  });
}
