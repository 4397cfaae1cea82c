import { z } from 'zod';
import { routeQuestion } from '../../questions/question-route.js';
import { defineVerb } from '../define-verb.js';
import { rowEventData } from '../../projections/row-event.js';
import { tipOf } from './tip.js';
import { GROUP_ID_PATTERN, groupReads, groupRevision, groupStatus, knownGroup, replacementGroupAnswer } from './replacement-group-view.js';
import { GateError, ErrorCode } from '../../gate-error.js';
import { failpoint } from '../../failpoints.js';
import { namedRows, type Group } from '../../projections/replacement-group-reads.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';
import { eventIdAnswer } from '../answer-types.js';

const refused = (message: string, reason: string, extra: Record<string, unknown> = {}) =>
  new GateError(ErrorCode.lifecycle, `gv.replacement_activate: ${message}`, { reason, ...extra });

/** The supersedes edges a group adds, child first: merge and supersede point the child at each parent, split each child at the parent. */
export function groupEdges(group: Group): Array<{ child: string; parent: string }> {
  const children = group.children.map((c) => c.artifact_id);
  return children.flatMap((child) => group.parents.map((parent) => ({ child, parent })));
}

const row = (house: Pick<House, 'store'>, id: string): ArtifactRow => {
  const found = house.store.artifacts.byId(id);
  if (found === undefined) throw new Error(`replacement group names ${id}, which the artifacts view does not hold`);
  return found;
};

/**
 * Every reason activation may not happen now, checked in the order a reviewer can act on
 * them; throws the first. Runs inside the write, against the database alone.
 */
function checkActivation(house: Pick<House, 'store' | 'config'>, caller: Caller, group: Group, graphRevision: string): { selfSigned: boolean } {
  if (group.state !== 'PENDING') throw refused(`the group is ${group.state}; only a PENDING group is activated`, 'not_pending');
  let selfSigned = false;
  if (group.proposer === caller.identity) {
    // A second person must activate what one proposed; a single developer may sign both, on the record.
    if (house.config.deployment.mode !== 'development') {
      throw refused('the identity that proposed a group never activates it; another reviewer must', 'proposer');
    }
    selfSigned = true;
  }
  if (graphRevision !== groupRevision(house, group)) {
    throw refused('graph_revision is stale: the group or its rows changed since it was read; read gv.replacements again', 'stale_revision');
  }
  for (const id of namedRows(group)) {
    const rival = groupReads(house).naming(id).find((g) => g.group_id !== group.group_id && g.state === 'ACTIVATED');
    if (rival !== undefined) {
      throw refused(`${id.slice(0, 16)} was already replaced by group ${rival.group_id}`, 'competing_group', { group: rival.group_id });
    }
  }
  for (const child of group.children) {
    const id = child.artifact_id;
    const at = row(house, id);
    if (child.prepared_seq === null) {
      throw refused(`child ${id.slice(0, 16)} is not prepared; gv.replacement_prepare it first`, 'unprepared_child', { child: id });
    }
    if (at.state !== 'L3_RATIFIED') {
      throw refused(`child ${id.slice(0, 16)} left L3_RATIFIED for ${at.state} after it was prepared`, 'child_moved', { child: id });
    }
    if (at.writer_identity === caller.identity) {
      throw refused('a reviewer never promotes a row they wrote, and activation promotes every child', 'self_authored');
    }
  }
  for (const parent of group.parents) {
    const state = row(house, parent).state;
    if (state !== 'ACTIVE') {
      throw refused(`parent ${parent.slice(0, 16)} is ${state}; only an ACTIVE row is superseded`, 'parent_not_active', { parent });
    }
  }
  for (const { child, parent } of groupEdges(group)) {
    if (house.store.relations.supersedesTransitively(parent, child)) {
      const loop = `parent ${parent.slice(0, 16)} already supersedes child ${child.slice(0, 16)}`;
      throw refused(`${loop}; the group would make a cycle`, 'cycle');
    }
  }
  return { selfSigned };
}

const replacementActivateAnswer = replacementGroupAnswer.extend({
  event_id: eventIdAnswer,
  promoted: z.array(z.string()),
  superseded: z.array(z.string()),
  frontier: z.array(z.string()),
  published: z.boolean(),
});

export const replacementActivateVerb = defineVerb({
  name: 'gv.replacement_activate',
  role: 'reviewer',
  summary: 'Activate a pending group in one transaction: its prepared children are served and its parents SUPERSEDED together.',
  params: z.strictObject({
    group_id: z.string().regex(GROUP_ID_PATTERN, 'not a group id'),
    graph_revision: z.string().min(1).max(128),
  }),
  answer: replacementActivateAnswer,
  uses: ['store', 'access', 'crews', 'config'],
  handler({ caller, store, access, crews, config }, p) {
    return store.writer.write(() => {
      const group = knownGroup({ store }, p.group_id);
      const { selfSigned } = checkActivation({ store, config }, caller, group, p.graph_revision);
      const promoted: string[] = [];
      for (const child of group.children) {
        // As gv.promote: a solo gate's promotion is provisional until an org gate countersigns (docs/protocol.md#states).
        const own = { provisional: true, group_id: group.group_id };
        const childRow = row({ store }, child.artifact_id);
        store.journal.append('promote', caller.identity, rowEventData(childRow, 'ACTIVE', own));
        if (childRow.kind === 'question') routeQuestion({ store, crews, config }, childRow);
        promoted.push(child.artifact_id);
      }
      failpoint('replacement-activate-between-promote-and-relation');
      const superseded: string[] = [];
      for (const { child, parent } of groupEdges(group)) {
        const base = { child, parent, kind: 'supersedes', group_id: group.group_id };
        const parentRow = row({ store }, parent);
        if (parentRow.state === 'ACTIVE') {
          // The first edge to a parent moves it, so the event concerns the parent (as gv.relate).
          store.journal.append('relation', caller.identity, rowEventData(parentRow, 'SUPERSEDED', base));
          superseded.push(parent);
        } else {
          // A split's later edges find the parent already SUPERSEDED: they move nothing and concern the child.
          const childRow = row({ store }, child);
          store.journal.append('relation', caller.identity, { artifact_id: child, space: childRow.space, ...base, ...(childRow.workarea === null ? {} : { workarea: childRow.workarea }) });
        }
      }
      const data = { group_id: group.group_id, space: group.space, promoted, superseded, ...(selfSigned ? { self_signed: true as const } : {}) };
      const event = store.journal.append('replacement-activated', caller.identity, data);
      const frontier = [...new Set(promoted.map((id) => tipOf({ store, access }, caller, id).head).filter((h): h is string => h !== null))];
      return {
        ...groupStatus({ store }, groupReads({ store }).byId(group.group_id)!),
        event_id: event.event_id,
        promoted,
        superseded,
        frontier,
        // Served from this commit on: a solo gate has no separate publish step.
        published: true,
      };
    });
  },
});
