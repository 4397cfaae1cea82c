import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { verifyChain } from '../../journal/verify-chain.js';

/** The verb form of `gate verify`: the live journal's whole chain and every signature. */
export const auditChainVerb = defineVerb({
  name: 'gv.audit_chain',
  role: 'admin',
  summary: 'Verify the whole journal chain and every signature against the deployment key.',
  params: z.strictObject({}),
  handler({ gate }) {
    gate.writer.flush();
    return verifyChain(gate.db, gate.deploymentId);
  },
});
