import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';

/**
 * A row's relation edges in both directions. Below reviewer an edge is served only when
 * the row at its other end is readable, so a relation never reveals a held row's id.
 */
export function visibleRelations(house: Pick<House, 'store' | 'access'>, caller: Caller, id: string) {
  const out = [];
  for (const edge of house.store.relations.edgesOf(id)) {
    const asChild = edge.child === id;
    const other = asChild ? edge.parent : edge.child;
    const row = house.store.artifacts.byId(other);
    if (!row || !house.access.visibility.canRead(caller, row)) continue;
    out.push({
      kind: edge.kind,
      direction: asChild ? 'parent' : 'child',
      artifact_id: other,
      state: row.state,
      by: edge.by,
      ts: edge.ts,
      event_id: edge.event_id,
      group_id: edge.group_id,
    });
  }
  return out;
}

export const relationAnswer = z.object({
    kind: z.enum(['supersedes', 'restates', 'corrects', 'contradicts', 'extends']),
    direction: z.string(),
    artifact_id: z.string(),
    state: z.string(),
    by: z.string().nullable(),
    ts: z.number().int(),
    event_id: z.string(),
    group_id: z.string().nullable(),
  });

const relationsAnswer = z.object({
  artifact_id: z.string(),
  relations: z.array(relationAnswer),
});

export const relationsVerb = defineVerb({
  name: 'gv.relations',
  role: 'reader',
  summary: "A row's relations: supersedes, restates, corrects, contradicts, extends, each way.",
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: relationsAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    return { artifact_id: row.artifact_id, relations: visibleRelations({ store, access }, caller, row.artifact_id) };
  },
});
