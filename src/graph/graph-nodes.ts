import type { Caller } from '../access/caller.js';
import { isPromoted } from '../domain/states.js';
import { citedBy } from './cited-by.js';
import type { GraphRow } from '../projections/graph-reads.js';
import { nodeLabel } from '../domain/node-label.js';
import { markedWith } from '../projections/finding-marks.js';
import type { AccessPart } from '../access/access-part.js';
import type { LongRead } from '../long-reads/long-reads.js';
import { mapInPieces, pieces } from '../long-reads/read-windows.js';

export interface AreaFocus {
  space: string;
  workarea: string;
}

/** Audiences each row is hidden for; read a piece a chunk, and skipped when no hide stands anywhere. */
async function hiddenFor(read: LongRead, rows: readonly GraphRow[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!read.store.relations.anyHides()) return out;
  const promoted = rows.filter((r) => isPromoted(r.state)).map((r) => r.artifact_id);
  for await (const piece of pieces(read, promoted)) {
    for (const h of read.store.relations.hidesAmong(piece)) out.set(h.artifact_id, [...(out.get(h.artifact_id) ?? []), h.audience]);
  }
  return out;
}

/**
 * The graph's nodes, in the order given, shaped a piece a chunk over the read's snapshot.
 * Every node says what and whose it is; only a promoted row (what every reader may be
 * served) carries its label and source_uri. A question lists the readable rows citing it;
 * with a work area in focus each node says whether it lies outside that area.
 */
export async function graphNodes(access: AccessPart, read: LongRead, caller: Caller, rows: readonly GraphRow[], focus?: AreaFocus) {
  const house = { store: read.store, access };
  const hides = await hiddenFor(read, rows);
  return mapInPieces(read, rows, (r) => {
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
      // The label is the row's words: a row promoted over the scanner's findings says so beside it.
      Object.assign(node, markedWith(read.store.artifacts.findingMarks(r)));
    }
    if (r.kind === 'question') node['cited_by'] = citedBy(house, caller, r.artifact_id);
    if (focus !== undefined) node['foreign'] = r.space !== focus.space || r.workarea !== focus.workarea;
    return node;
  });
}
