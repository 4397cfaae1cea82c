import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { GROUP_ID_PATTERN, groupReads, groupStatus, replacementGroupAnswer } from './replacement-group-view.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { PROMOTABLE_STATES, type ArtifactState } from '../../domain/states.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { GROUP_OPERATIONS, type GroupOperation } from '../../projections/replacement-group-reads.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';
import { eventIdAnswer } from '../answer-types.js';

/** Derived ids carry this prefix and callers' ids may not, so the two never collide. */
const DERIVED_PREFIX = 'rg:';

/** Most rows on one side of a group: a replacement is an editorial act, not a bulk import. */
export const GROUP_SIDE_MAX = 64;

const ids = z.array(artifactIdParam).min(1).max(GROUP_SIDE_MAX);

/** The shape each operation must have (docs/protocol.md#gvreplacement_propose): a shape error names the field to fix. */
function shapeProblem(operation: GroupOperation, parents: string[], children: string[]): { field: string; why: string } | null {
  if (operation === 'merge') {
    if (parents.length < 2) return { field: 'parent_ids', why: 'a merge replaces two or more parents' };
    if (children.length !== 1) return { field: 'child_ids', why: 'a merge has exactly one child' };
  } else if (operation === 'split') {
    if (parents.length !== 1) return { field: 'parent_ids', why: 'a split replaces exactly one parent' };
    if (children.length < 2) return { field: 'child_ids', why: 'a split has two or more children' };
  } else {
    if (parents.length !== 1) return { field: 'parent_ids', why: 'a supersede replaces exactly one parent' };
    if (children.length !== 1) return { field: 'child_ids', why: 'a supersede has exactly one child' };
  }
  for (const [field, list] of [['parent_ids', parents], ['child_ids', children]] as const) {
    if (new Set(list).size !== list.length) return { field, why: `${field} names a row twice` };
  }
  const both = children.find((c) => parents.includes(c));
  if (both !== undefined) return { field: 'child_ids', why: `${both.slice(0, 16)} is named both as parent and as child` };
  return null;
}

/** The proposal's substance, order-free: a repeat of it is the same group. */
export const manifestDigest = (operation: GroupOperation, parents: string[], children: string[]) =>
  sha256Hex(canonicalJson({ operation, parent_ids: [...parents].sort(), child_ids: [...children].sort() }));

/** Why the rows cannot form a group now, or null: parents served, children held and ratifiable, one space. */
function rowsProblem(parents: ArtifactRow[], children: ArtifactRow[]): { message: string; reason: string } | null {
  const space = parents[0]!.space;
  const elsewhere = [...parents, ...children].find((r) => r.space !== space);
  if (elsewhere !== undefined) {
    const where = `${elsewhere.artifact_id.slice(0, 16)} is in ${elsewhere.space}, not ${space}`;
    return { message: `every row of a group is in one space; ${where}`, reason: 'mixed_spaces' };
  }
  const unserved = parents.find((r) => r.state !== 'ACTIVE');
  if (unserved !== undefined) {
    const what = `parent ${unserved.artifact_id.slice(0, 16)} is ${unserved.state}`;
    return { message: `${what}; only an ACTIVE row is replaced`, reason: 'parent_not_active' };
  }
  for (const child of children) {
    if (PROMOTABLE_STATES.has(child.state as ArtifactState)) continue;
    const why =
      child.state === 'L1B_FLAGGED'
        ? 'a flagged row needs a disposition before it can replace anything'
        : 'a child is a held or scored row not yet served';
    return { message: `child ${child.artifact_id.slice(0, 16)} is ${child.state}; ${why}`, reason: 'child_not_eligible' };
  }
  return null;
}

function readRows(house: Pick<House, 'access'>, caller: Caller, list: string[]): ArtifactRow[] {
  return list.map((id) => house.access.readableArtifact(caller, id));
}

const replacementProposeAnswer = replacementGroupAnswer.extend({
  recorded: z.boolean().optional().describe('the same proposal again: nothing new was recorded'),
  event_id: eventIdAnswer.optional(),
});

export const replacementProposeVerb = defineVerb({
  name: 'gv.replacement_propose',
  role: 'reviewer',
  summary: 'Propose a replacement group: merge, split or supersede ACTIVE parents by held children; activation is a separate act.',
  params: z.strictObject({
    operation: z.enum(GROUP_OPERATIONS),
    parent_ids: ids,
    child_ids: ids,
    reason: z.string().min(1).max(500),
    policy_revision: z.string().min(1).max(128).optional(),
    group_id: z
      .string()
      .regex(GROUP_ID_PATTERN, 'a group id is 1 to 128 letters, digits and . _ : -')
      .refine((id) => !id.startsWith(DERIVED_PREFIX), `${DERIVED_PREFIX} begins the ids the gate derives; name the group another way`)
      .optional(),
  }),
  answer: replacementProposeAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const shape = shapeProblem(p.operation, p.parent_ids, p.child_ids);
    if (shape !== null) throw invalidParams(`gv.replacement_propose: ${shape.why}`, { field: shape.field });
    const digest = manifestDigest(p.operation, p.parent_ids, p.child_ids);
    return store.writer.write(() => {
      const reads = groupReads({ store });
      const named = p.group_id === undefined ? undefined : reads.byId(p.group_id);
      if (named !== undefined && named.manifest_digest !== digest) {
        throw invalidParams(`group_id ${p.group_id} already names a group with other rows or another operation`, { field: 'group_id' });
      }
      // A repeat answers the group already standing for this proposal, with no second event.
      const standing = named ?? reads.standingFor(digest);
      if (standing !== undefined) return { ...groupStatus({ store }, standing), recorded: true };

      const parents = readRows({ access }, caller, p.parent_ids);
      const children = readRows({ access }, caller, p.child_ids);
      const problem = rowsProblem(parents, children);
      if (problem !== null) {
        const message = `gv.replacement_propose: ${problem.message}`;
        // Rows of two spaces are a malformed proposal; a row in the wrong state is a lifecycle refusal.
        if (problem.reason === 'mixed_spaces') throw invalidParams(message, { field: 'child_ids', reason: problem.reason });
        throw lifecycle(message, problem.reason);
      }
      // An aborted proposal may be made again: each attempt of one manifest gets its own id.
      const attempt = reads.attemptsOf(digest);
      const groupId = p.group_id ?? `${DERIVED_PREFIX}${sha256Hex(canonicalJson({ manifest_digest: digest, attempt }))}`;
      const data = {
        group_id: groupId,
        space: parents[0]!.space,
        operation: p.operation,
        parent_ids: p.parent_ids,
        child_ids: p.child_ids,
        reason: p.reason,
        manifest_digest: digest,
        ...(p.policy_revision === undefined ? {} : { policy_revision: p.policy_revision }),
      };
      const event = store.journal.append('replacement-proposed', caller.identity, data);
      return { ...groupStatus({ store }, reads.byId(groupId)!), event_id: event.event_id };
    });
  },
});
