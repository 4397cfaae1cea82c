import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { approvalOf } from '../../review/approval-answer.js';

export const approvalVerb = defineVerb({
  name: 'gv.approval',
  role: 'reader',
  summary: "A row's approval: status, quorum (k required and had), every signer with its class and whether it counts.",
  params: z.strictObject({ artifact_id: artifactIdParam }),
  handler({ caller, store, access, review }, p) {
    return approvalOf({ store, access, review }, caller, access.readableArtifact(caller, p.artifact_id));
  },
});
