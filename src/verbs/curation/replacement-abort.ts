import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { GROUP_ID_PATTERN, groupReads, groupStatus, knownGroup, replacementGroupAnswer } from './replacement-group-view.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { eventIdAnswer } from '../answer-types.js';

export const ABORT_REASONS = ['cancelled', 'child_rejected', 'admission_refused', 'expired'] as const;
const EVIDENCE_MAX = 16;

const replacementAbortAnswer = replacementGroupAnswer.extend({
  recorded: z.boolean().optional().describe('already aborted: nothing new was recorded'),
  event_id: eventIdAnswer.optional(),
});

export const replacementAbortVerb = defineVerb({
  name: 'gv.replacement_abort',
  role: 'reviewer',
  summary: 'Abort a pending replacement group; nothing is deleted and no row moves. Never after activation.',
  params: z.strictObject({
    group_id: z.string().regex(GROUP_ID_PATTERN, 'not a group id'),
    reason: z.enum(ABORT_REASONS).optional(),
    evidence: z.array(artifactIdParam).min(1).max(EVIDENCE_MAX).optional(),
  }),
  answer: replacementAbortAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const reason = p.reason ?? 'cancelled';
    return store.writer.write(() => {
      const group = knownGroup({ store }, p.group_id);
      if (group.state === 'ACTIVATED') {
        throw lifecycle('gv.replacement_abort: the group is ACTIVATED; an activation is never undone by an abort', 'activated');
      }
      // Aborting what is aborted changes nothing and journals nothing.
      if (group.state === 'ABORTED') return { ...groupStatus({ store }, group), recorded: true };
      for (const id of p.evidence ?? []) access.readableArtifact(caller, id);
      if (reason === 'child_rejected' && !group.children.some((c) => store.artifacts.byId(c.artifact_id)?.state === 'REJECTED')) {
        throw invalidParams('gv.replacement_abort: reason child_rejected needs a child of the group in REJECTED', { field: 'reason' });
      }
      const data = { group_id: group.group_id, space: group.space, reason, ...(p.evidence === undefined ? {} : { evidence: p.evidence }) };
      const event = store.journal.append('replacement-aborted', caller.identity, data);
      return { ...groupStatus({ store }, groupReads({ store }).byId(group.group_id)!), event_id: event.event_id };
    });
  },
});
