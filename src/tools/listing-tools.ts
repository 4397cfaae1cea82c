import { z } from 'zod';
import { limitParam } from '../verbs/param-types.js';
import { READ_ONLY, defineTool, present } from './define-tool.js';

export const pendingTool = defineTool({
  name: 'gate.pending',
  tiers: ['client', 'plugin'],
  description:
    'Claims waiting in quarantine that you may see, metadata only: ids, types, states, ages and finding counts, in `pending`. `findings` counts finding groups, one per scan and kind.',
  annotations: READ_ONLY,
  verb: 'gv.pending',
  input: z.strictObject({ limit: limitParam(1000).optional().describe('default 100, at most 1000') }),
  output: z.object({
    pending: z.array(
      z.object({
        artifact_id: z.string(),
        state: z.string(),
        kind: z.string().nullable(),
        content_type: z.string(),
        trust_class: z.string().nullable().describe('null on the plugin tier for a claim no gate has classed yet'),
        space: z.string(),
        workarea: z.string().nullable(),
        findings_count: z.number().int(),
        findings: z.number().int(),
        ingest_ts: z.number().int(),
        age_ms: z.number().int(),
        self_authored: z.boolean().describe('you wrote it (nobody may promote their own claim)'),
      }),
    ),
    truncated: z.boolean().describe('more rows wait than the limit listed'),
  }),
  params: (a) => present({ limit: a.limit }),
  answer: (r) => r,
});

export const spacesTool = defineTool({
  name: 'gate.spaces',
  tiers: ['client'],
  description: "Each space's name, owner, review policy and the count of claims you may see in it. No tool creates a space.",
  annotations: READ_ONLY,
  verb: 'gv.spaces',
  input: z.strictObject({}),
  output: z.object({
    spaces: z.array(z.object({ name: z.string(), owner: z.string(), policy: z.string(), artifacts: z.number().int() })),
  }),
  params: () => ({}),
  answer: (r) => r,
});
