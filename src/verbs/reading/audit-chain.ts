import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { withTreeCheck } from '../../projections/log-tree-check.js';

/**
 * The verb form of `gate verify`: the live journal's whole chain and every signature, and
 * the stored log tree's root against the root of the ids walked.
 */
/** The deployment's signing keys, the genesis key first, each with the first seq it signs (more than one after `gate key rotate`). */
const signingKeysAnswer = z.array(z.object({ key: z.string(), from_seq: z.number().int() }));

const auditChainAnswer = z.union([
  z.object({
    ok: z.boolean(),
    tree: z.literal('differs'),
    problem: z.string(),
    events: z.number().int(),
    first_seq: z.number().nullable(),
    last_seq: z.number().nullable(),
    head: z.string().nullable(),
    deployment_id: z.string().nullable(),
    keys: signingKeysAnswer,
    types: z.record(z.string(), z.number()),
    root: z.string(),
    first_bad_seq: z.number().optional(),
  }),
  z.object({
    tree: z.enum(['agrees', 'absent']),
    ok: z.boolean(),
    events: z.number().int(),
    first_seq: z.number().nullable(),
    last_seq: z.number().nullable(),
    head: z.string().nullable(),
    deployment_id: z.string().nullable(),
    keys: signingKeysAnswer,
    types: z.record(z.string(), z.number()),
    root: z.string(),
    first_bad_seq: z.number().optional(),
    problem: z.string().optional(),
  }),
]);

export const auditChainVerb = defineVerb({
  name: 'gv.audit_chain',
  role: 'admin',
  summary: 'Verify the whole journal chain and every signature against the deployment key, and the log tree against the chain.',
  params: z.strictObject({}),
  answer: auditChainAnswer,
  uses: ['store', 'deployment'],
  handler({ store, deployment }) {
    store.writer.flush();
    const report = store.journalReads.verifiedChain(deployment.deploymentId);
    return withTreeCheck(report, store.logTree.checkStored(report));
  },
});
