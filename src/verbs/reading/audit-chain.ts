import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { verifyChain } from '../../journal/verify-chain.js';
import { checkStoredTree, withTreeCheck } from '../../projections/log-tree-check.js';

/**
 * The verb form of `gate verify`: the live journal's whole chain and every signature, and
 * the stored log tree's root against the root of the ids walked.
 */
export const auditChainVerb = defineVerb({
  name: 'gv.audit_chain',
  role: 'admin',
  summary: 'Verify the whole journal chain and every signature against the deployment key, and the log tree against the chain.',
  params: z.strictObject({}),
  handler({ gate }) {
    gate.store.writer.flush();
    const report = verifyChain(gate.db, gate.deployment.deploymentId);
    return withTreeCheck(report, checkStoredTree(gate.db, report));
  },
});
