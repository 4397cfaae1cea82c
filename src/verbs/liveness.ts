import { VERBS_BY_NAME } from './registry.js';
import { z } from 'zod';
import { defineVerb } from './define-verb.js';
import { SERVICE_VERSION } from '../version.js';
import { degradations } from '../review/degraded.js';

export const pingVerb = defineVerb({
  name: 'gv.ping',
  role: 'reader',
  summary: 'Liveness: the deployment id, your role, where the gate listens, and whether it is degraded and why.',
  params: z.strictObject({}),
  handler({ caller, store, access, review, pipeline, config, deployment }) {
    const reasons = degradations({ store, review, pipeline, config }, access.visibility.seesEverything(caller));
    return {
      pong: true,
      deployment_id: deployment.deploymentId,
      role: caller.role,
      paths: { http: deployment.endpoints.http ?? null, socket: deployment.endpoints.socket ?? null },
      degraded: reasons.length > 0,
      degraded_reasons: reasons,
      quorum_profile: review.board.settings.profileName,
    };
  },
});

export const describeVerb = defineVerb({
  name: 'gv.describe',
  role: 'reader',
  summary: 'The service, its version, the verb catalog and who you are.',
  params: z.strictObject({}),
  handler({ caller, config }) {
    return {
      service: 'gate',
      version: SERVICE_VERSION,
      verbs: [...VERBS_BY_NAME.values()].map((v) => ({ name: v.name, role: v.role, summary: v.summary })),
      documents: { identity: '/identity' },
      you: { identity: caller.identity, role: caller.role, kind: caller.kind, demo: caller.demo },
      deployment_mode: config.deployment.mode,
    };
  },
});
