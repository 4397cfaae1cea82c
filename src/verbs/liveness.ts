import { VERBS_BY_NAME } from './registry.js';
import { z } from 'zod';
import { defineVerb } from './define-verb.js';
import { SERVICE_VERSION } from '../version.js';
import { degradations } from '../review/degraded.js';
import { degradationAnswer, roleAnswer } from './answer-types.js';

const pingAnswer = z.object({
  pong: z.boolean(),
  deployment_id: z.string(),
  role: roleAnswer,
  paths: z.object({ http: z.string().nullable(), socket: z.string().nullable() }),
  degraded: z.boolean(),
  degraded_reasons: z.array(degradationAnswer),
  quorum_profile: z.string(),
});

export const pingVerb = defineVerb({
  name: 'gv.ping',
  role: 'reader',
  summary: 'Liveness: the deployment id, your role, where the gate listens, and whether it is degraded and why.',
  params: z.strictObject({}),
  answer: pingAnswer,
  uses: ['store', 'access', 'pipeline', 'review', 'deployment', 'config'],
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

const describeAnswer = z.object({
  service: z.string(),
  version: z.string(),
  verbs: z.array(z.object({
    name: z.string(),
    role: roleAnswer,
    summary: z.string(),
  })),
  documents: z
    .object({
      identity: z.string().describe("the deployment's public identity document"),
      openapi: z.string().describe('the HTTP description; POST /rpc lists each verb with its params and its answer schema'),
      catalog: z.string().describe('the public catalog: each verb with its params and answer schema, each tool with its input and output schema'),
    })
    .describe('paths, on this gate, of the documents that describe it'),
  you: z.object({
    identity: z.string(),
    role: roleAnswer,
    kind: z.enum(['local', 'person', 'program']),
    demo: z.boolean(),
  }),
  deployment_mode: z.enum(['development', 'production']),
});

export const describeVerb = defineVerb({
  name: 'gv.describe',
  role: 'reader',
  summary: 'The service, its version, the verb catalog and who you are.',
  params: z.strictObject({}),
  answer: describeAnswer,
  uses: ['config'],
  handler({ caller, config }) {
    return {
      service: 'gate',
      version: SERVICE_VERSION,
      verbs: [...VERBS_BY_NAME.values()].map((v) => ({ name: v.name, role: v.role, summary: v.summary })),
      documents: { identity: '/identity', openapi: '/openapi.json', catalog: '/mcp/catalog.json' },
      you: { identity: caller.identity, role: caller.role, kind: caller.kind, demo: caller.demo },
      deployment_mode: config.deployment.mode,
    };
  },
});
