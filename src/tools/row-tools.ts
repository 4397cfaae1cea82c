import { z } from 'zod';
import { artifactIdParam } from '../verbs/param-types.js';
import { READ_ONLY, defineTool } from './define-tool.js';
import { servedEventSchema } from '../events/served-event.js';
import { checkpointSchema, inclusionSchema, keyRotationsSchema } from '../verbs/reading/log-proofs.js';

/** A plugin-tier handle: the gate's id, or `local:<id>` for a claim no gate has stamped yet. */
export const LOCAL_HANDLE = /^local:[0-9a-f]{32}$/;
const pluginHandle = z.union([
  z.string().regex(LOCAL_HANDLE, 'a local handle is local:<32 hex>'),
  artifactIdParam,
]);

const byId = z.strictObject({ artifact_id: artifactIdParam.describe('sha256:<64 hex>, or the 64 hex alone') });
const byHandle = z.strictObject({ artifact_id: pluginHandle.describe('sha256:<64 hex> or a local:<id> handle') });
const passThrough = (r: any) => r as Record<string, unknown>;

export const statusTool = defineTool({
  name: 'gate.status',
  tiers: ['client', 'plugin'],
  description: "A claim's position and the reason it is there; the position is in `state`.",
  annotations: READ_ONLY,
  verb: 'gv.status',
  input: byId,
  pluginInput: byHandle,
  output: z.object({
    artifact_id: z.string(),
    state: z.string(),
    reason: z.string(),
    held: z.boolean(),
    ratified: z.boolean(),
    provisional: z.boolean(),
    space: z.string(),
    workarea: z.string().nullable(),
    findings_count: z.number().int(),
    since_ts: z.number().int(),
    local_id: z.string().optional().describe('plugin tier: the local handle this id was stamped for'),
  }),
  params: (a) => ({ artifact_id: a.artifact_id }),
  answer: passThrough,
});

export const whyTool = defineTool({
  name: 'gate.why',
  tiers: ['client'],
  description:
    'Every journal event that moved a claim, in order, in `events`, each with its signature, the signed bytes where the caller may read all they hold, and its inclusion proof in the signed `checkpoint`: checkable offline with the deployment id alone.',
  annotations: READ_ONLY,
  verb: 'gv.why',
  input: byId,
  output: z.object({
    artifact_id: z.string(),
    state: z.string(),
    deployment_id: z.string(),
    checkpoint: checkpointSchema,
    key_rotations: keyRotationsSchema,
    events: z.array(
      servedEventSchema.extend({
        seq: z.number().int(),
        prev: z.string().nullable().describe('the event before it in the journal'),
        sig: z.string().describe("Ed25519 over the event's canonical bytes, by the deployment key"),
        verified: z.boolean().describe('the signature checked against deployment_id, by the gate'),
        signed: z
          .string()
          .nullable()
          .describe("the exact bytes signed (the event's canonical JSON, {v, seq, type, ts, prev, by, data}), so a reader checks sig itself; null when the event holds a field in `withheld`"),
        withheld: z.array(z.string()).describe('fields of the event whose values this caller is not served, which keep `signed` back; empty when it is served'),
        inclusion: inclusionSchema,
      }),
    ),
  }),
  params: (a) => ({ artifact_id: a.artifact_id }),
  answer: passThrough,
});

export const tipTool = defineTool({
  name: 'gate.tip',
  tiers: ['client'],
  description: 'The served head of a claim’s supersession chain, the whole chain root to head, and any pin in effect.',
  annotations: READ_ONLY,
  verb: 'gv.tip',
  input: byId,
  output: z.object({
    artifact_id: z.string(),
    head: z.string().nullable(),
    natural_head: z.string().nullable(),
    chain: z.array(
      z.object({
        artifact_id: z.string(),
        state: z.string(),
        promoted_at: z.number().int().nullable(),
        state_ts: z.number().int().describe('when it entered its state'),
      }),
    ),
    pin: z.object({ artifact_id: z.string(), by: z.string().nullable(), ts: z.number(), event_id: z.string() }).nullable(),
  }),
  params: (a) => ({ artifact_id: a.artifact_id }),
  answer: passThrough,
});
