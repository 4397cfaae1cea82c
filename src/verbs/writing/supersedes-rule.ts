import { rowEventData } from '../../projections/row-event.js';
import { pendingGroupNaming } from '../../review/promotion.js';
import { GateError, ErrorCode } from '../../gate-error.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { House } from '../house.js';

export interface SupersedesRefusal {
  words: string;
  reason: 'relation_refused' | 'replacement_pending';
  group_id?: string;
}

/**
 * Why `child` may not supersede `parent`, or null: the one rule behind gv.relate and
 * gv.promote's `supersedes`. Superseding takes the parent off the served surface in favour
 * of the child, so both must be served when the edge lands (`childState` is the state the
 * child will stand in then: gv.promote appends the child's promotion first), in one space,
 * with no loop. A row a pending replacement group names moves with that group: a direct
 * supersession would overtake a reviewer's standing plan for it.
 */
export function supersedesProblem(house: Pick<House, 'store'>, child: ArtifactRow, parent: ArtifactRow, childState = child.state): SupersedesRefusal | null {
  const refused = (words: string): SupersedesRefusal => ({ words, reason: 'relation_refused' });
  if (child.space !== parent.space) return refused('supersedes relates two rows of one space');
  if (parent.state !== 'ACTIVE') return refused(`the parent is ${parent.state}; only an ACTIVE row can be superseded`);
  if (childState !== 'ACTIVE') {
    const stands = childState === child.state ? `is ${childState}` : `would enter ${childState}`;
    return refused(`the child ${stands}; only an ACTIVE row supersedes (a held child goes through a replacement group)`);
  }
  for (const [role, row] of [['child', child], ['parent', parent]] as const) {
    const group = pendingGroupNaming(house, row.artifact_id);
    if (group !== null) {
      return {
        words: `pending replacement group ${group} names the ${role}; it moves with that group (activate or abort it first)`,
        reason: 'replacement_pending',
        group_id: group,
      };
    }
  }
  if (house.store.relations.supersedesTransitively(parent.artifact_id, child.artifact_id)) {
    return refused('the relation would make a cycle: the parent already supersedes the child');
  }
  return null;
}

/** The supersedes relation event: it concerns the row it moves, the parent leaving ACTIVE for SUPERSEDED. */
export function supersedesEventData(child: ArtifactRow, parent: ArtifactRow) {
  return rowEventData(parent, 'SUPERSEDED', { child: child.artifact_id, parent: parent.artifact_id, kind: 'supersedes' });
}

/** Throws the verb's lifecycle refusal when the supersession may not stand. */
export function requireSupersession(house: Pick<House, 'store'>, verb: string, child: ArtifactRow, parent: ArtifactRow, childState = child.state): void {
  const problem = supersedesProblem(house, child, parent, childState);
  if (problem === null) return;
  const { words, ...data } = problem;
  throw new GateError(ErrorCode.lifecycle, `${verb}: ${words}`, data);
}
