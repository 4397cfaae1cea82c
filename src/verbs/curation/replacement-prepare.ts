import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { rowEventData } from '../../projections/row-event.js';
import { GROUP_ID_PATTERN, groupReads, groupStatus, knownGroup, replacementGroupAnswer } from './replacement-group-view.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { PROMOTABLE_STATES, type ArtifactState } from '../../domain/states.js';
import { eventIdAnswer } from '../answer-types.js';

const replacementPrepareAnswer = replacementGroupAnswer.extend({
  child_id: z.string(),
  child_state: z.string(),
  event_id: eventIdAnswer,
});

export const replacementPrepareVerb = defineVerb({
  name: 'gv.replacement_prepare',
  role: 'reviewer',
  summary: 'Ratify one child of a pending replacement group: it enters L3_RATIFIED and is still not served (no promote).',
  params: z.strictObject({
    group_id: z.string().regex(GROUP_ID_PATTERN, 'not a group id'),
    child_id: artifactIdParam,
  }),
  answer: replacementPrepareAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    return store.writer.write(() => {
      const group = knownGroup({ store }, p.group_id);
      if (group.state !== 'PENDING') {
        throw lifecycle(`gv.replacement_prepare: the group is ${group.state}; only a PENDING group's children are prepared`, 'not_pending');
      }
      const member = group.children.find((c) => c.artifact_id === p.child_id);
      if (member === undefined) {
        throw invalidParams(`gv.replacement_prepare: ${p.child_id.slice(0, 16)} is not a child of group ${group.group_id}`, { field: 'child_id' });
      }
      if (member.prepared_seq !== null) {
        throw lifecycle(`gv.replacement_prepare: child ${p.child_id.slice(0, 16)} is already prepared in this group`, 'already_prepared');
      }
      const child = access.readableArtifact(caller, p.child_id);
      // Preparing ratifies the row: a decision, and a reviewer never decides a row they wrote.
      if (child.writer_identity === caller.identity) {
        throw lifecycle('gv.replacement_prepare: a reviewer never ratifies a row they wrote', 'self_authored');
      }
      if (child.erased_seq !== null) throw lifecycle('gv.replacement_prepare: the content of this child was erased; an erased row is never promoted', 'erased');
      if (!PROMOTABLE_STATES.has(child.state as ArtifactState)) {
        const why = child.state === 'L1B_FLAGGED' ? 'a flagged row needs a disposition first' : 'only a held or scored row is ratified';
        throw lifecycle(`gv.replacement_prepare: child ${p.child_id.slice(0, 16)} is ${child.state}; ${why}`, 'wrong_state');
      }
      const event = store.journal.append('replacement-prepared', caller.identity, rowEventData(child, 'L3_RATIFIED', { group_id: group.group_id }));
      return {
        ...groupStatus({ store }, groupReads({ store }).byId(group.group_id)!),
        child_id: child.artifact_id,
        child_state: 'L3_RATIFIED',
        event_id: event.event_id,
      };
    });
  },
});
