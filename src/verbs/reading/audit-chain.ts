import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { withTreeCheck } from '../../projections/log-tree-check.js';

/**
 * The verb form of `gate verify`: the live journal's whole chain and every signature, and
 * the stored log tree's root against the root of the ids walked.
 */
export const auditChainVerb = defineVerb({
  name: 'gv.audit_chain',
  role: 'admin',
  summary: 'Verify the whole journal chain and every signature against the deployment key, and the log tree against the chain.',
  params: z.strictObject({}),
  handler({ store, deployment }) {
    store.writer.flush();
    const report = store.journalReads.verifiedChain(deployment.deploymentId);
    return withTreeCheck(report, store.logTree.checkStored(report));
  },
});
