import { z } from 'zod';
import { SERVICE_VERSION } from '../version.js';
import { defineOrgVerb } from './define-org-verb.js';
import { ORG_VERBS } from './org-registry.js';

/** gv.describe at the organization gate: its verbs and who the caller is (a person learns the iss|sub an admin assigns a role to). */
export const orgDescribeVerb = defineOrgVerb({
  name: 'gv.describe',
  role: 'reader',
  summary: 'The organization gate, its version, its verb catalog and who you are.',
  params: z.strictObject({}),
  async handler(ctx, caller) {
    return {
      service: 'gate-org',
      version: SERVICE_VERSION,
      deployment_id: ctx.key.deploymentId,
      verbs: [...ORG_VERBS.values()].map((v) => ({ name: v.name, role: v.role, summary: v.summary })),
      you: { identity: caller.identity, role: caller.role, kind: caller.kind },
    };
  },
});
