import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { approvalOf } from '../../review/approval-answer.js';
import { waitsForAnswer } from '../answer-types.js';
import { APPROVAL_STATUSES } from '../../review/approval-status.js';

export const approvalAnswer = z.object({
  revision: z.string(),
  open_objections: z.number(),
  veto: z.object({ by: z.string(), event_id: z.string(), ts: z.number().int() }).optional(),
  mode: z.enum(['model', 'human', 'auto']),
  quorum_profile: z.string(),
  k_required: z.number().int(),
  k_have: z.number().int(),
  people_required: z.number().int(),
  people_have: z.number().int(),
  signers: z.array(z.object({
    event_id: z.string(),
    ts: z.number().int(),
    why: z.string().optional(),
    counts: z.boolean(),
    stance: z.string().optional(),
    identity: z.string(),
    class: z.string(),
    decision: z.string(),
  })),
  approved_by: z.object({ model: z.number(), human: z.number(), authority: z.number() }),
  model_labels: z.array(z.string()),
  provisional: z.boolean(),
  human_veto_available: z.boolean(),
  human_sign_available: z.boolean(),
  decisions: z.array(z.object({
    epoch: z.number().int(),
    event_id: z.string(),
    ts: z.number().int(),
    category: z.string().optional(),
    type: z.string(),
    by: z.string(),
    class: z.string(),
    decision: z.string(),
  })),
  waits_for: waitsForAnswer.optional(),
  artifact_id: z.string(),
  state: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  reason: z.string(),
});

export const approvalVerb = defineVerb({
  name: 'gv.approval',
  role: 'reader',
  summary: "A row's approval: status, quorum (k required and had), every signer with its class and whether it counts.",
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: approvalAnswer,
  uses: ['store', 'access', 'review'],
  handler({ caller, store, access, review }, p) {
    return approvalOf({ store, access, review }, caller, access.readableArtifact(caller, p.artifact_id));
  },
});
