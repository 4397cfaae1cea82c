import { z } from 'zod';
import { defineVerb } from './define-verb.js';
import { artifactIdParam } from './param-types.js';
import { rowEventData } from './row-event.js';
import { invalidParams, lifecycle } from '../gate-error.js';
import { RELATION_KINDS } from '../projections/relation-reads.js';
import type { Gate } from '../gate.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';

/**
 * Why a supersedes relation may not stand, or null. Superseding takes the parent off the
 * served surface in favour of the child, so both must be served now, in one space, and
 * the edge must not close a loop.
 */
export function supersedesProblem(gate: Gate, child: ArtifactRow, parent: ArtifactRow): string | null {
  if (child.space !== parent.space) return 'supersedes relates two rows of one space';
  if (parent.state !== 'ACTIVE') return `the parent is ${parent.state}; only an ACTIVE row can be superseded`;
  if (child.state !== 'ACTIVE') return `the child is ${child.state}; only an ACTIVE row supersedes (a held child goes through a replacement group)`;
  if (gate.relations.supersedesTransitively(parent.artifact_id, child.artifact_id)) {
    return 'the relation would make a cycle: the parent already supersedes the child';
  }
  return null;
}

export const relateVerb = defineVerb({
  name: 'gv.relate',
  role: 'reviewer',
  summary: 'Relate a child row to a parent: supersedes, restates, corrects, contradicts or extends (only supersedes hides the parent).',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    kind: z.enum(RELATION_KINDS),
    parent: artifactIdParam,
  }),
  handler({ gate, caller }, p) {
    if (p.artifact_id === p.parent) throw invalidParams('a row cannot relate to itself', { field: 'parent' });
    return gate.writer.write(() => {
      const child = gate.readableArtifact(caller, p.artifact_id);
      const parent = gate.readableArtifact(caller, p.parent);
      const standing = gate.relations.relation(child.artifact_id, parent.artifact_id, p.kind);
      if (standing) {
        return { artifact_id: child.artifact_id, relation: p.kind, parent: parent.artifact_id, event_id: standing.event_id, changed: false };
      }
      const base = { child: child.artifact_id, parent: parent.artifact_id, kind: p.kind };
      let data: Record<string, unknown>;
      if (p.kind === 'supersedes') {
        const problem = supersedesProblem(gate, child, parent);
        if (problem !== null) throw lifecycle(`gv.relate: ${problem}`, 'relation_refused');
        // The event concerns the row it moves: the parent leaves ACTIVE for SUPERSEDED.
        data = rowEventData(parent, 'SUPERSEDED', base);
      } else {
        data = { artifact_id: child.artifact_id, space: child.space, ...base };
        if (child.workarea !== null) data['workarea'] = child.workarea;
      }
      const event = gate.journal.append('relation', caller.identity, data);
      return { artifact_id: child.artifact_id, relation: p.kind, parent: parent.artifact_id, event_id: event.event_id, changed: true };
    });
  },
});
