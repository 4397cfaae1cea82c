import { z } from 'zod';
import { producerParam, spaceParam, workareaParam } from '../verbs/param-types.js';
import { WORKAREA_RELATION_KINDS } from '../verbs/curation/workareas.js';
import { IDEMPOTENT_WRITE, READ_ONLY, defineTool, present } from './define-tool.js';

const space = spaceParam.optional().describe('default main');
const note = z.string().min(1).max(500).optional();
const rowSummary = z.object({
  artifact_id: z.string(),
  kind: z.string().nullable().describe('null for recorded evidence'),
  content_type: z.string(),
  state: z.string(),
  producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
  ts: z.number().int().describe('when it was written'),
  state_ts: z.number().int().describe('when it entered its state'),
});
const promotedRow = rowSummary.extend({
  writer_identity: z.string(),
  promoted_ts: z.number().int().nullable(),
  provisional: z.boolean().describe('promoted here, not yet countersigned by an org gate'),
});

export const workareaTool = defineTool({
  name: 'gate.workarea',
  tiers: ['client', 'plugin'],
  description:
    'Your own claims in a work area with their states, its promoted claims, counts, and whether your part is open or complete. Metadata only; an area you never wrote into is refused.',
  annotations: READ_ONLY,
  verb: 'gv.workarea',
  input: z.strictObject({ workarea: workareaParam.describe('the area, 1 to 8 segments'), space }),
  output: z.object({
    space: z.string(),
    workarea: z.string(),
    identity: z.string().describe('whose part this is: the caller (on the plugin tier with no gate, local)'),
    state: z.enum(['open', 'complete']),
    completed_ts: z.number().int().optional().describe('when your part was completed'),
    own: z.array(rowSummary),
    promoted: z.array(promotedRow),
    counts: z.record(z.string(), z.number().int()),
    truncated: z.boolean(),
  }),
  params: (a) => present({ workarea: a.workarea, space: a.space }),
  answer: (r) => r,
});

export const completeTool = defineTool({
  name: 'gate.complete',
  tiers: ['client', 'plugin'],
  description: 'Mark your part of a work area complete; later writes there are refused (-32010 work_complete). Completing twice changes nothing; there is no reopen.',
  annotations: IDEMPOTENT_WRITE,
  verb: 'gv.complete',
  input: z.strictObject({ workarea: workareaParam, space, note }),
  output: z.object({
    space: z.string(),
    name: z.string(),
    identity: z.string(),
    state: z.literal('complete'),
    changed: z.boolean(),
    event_id: z.string().optional(),
  }),
  params: (a) => present({ workarea: a.workarea, space: a.space, note: a.note }),
  answer: (r) => r,
});

export const workareaRelateTool = defineTool({
  name: 'gate.workarea_relate',
  tiers: ['client', 'plugin'],
  description:
    'Declare that a work area you wrote into was opened by, continues or derives from another. Cycles are refused; repeating changes nothing; there is no unlink.',
  annotations: IDEMPOTENT_WRITE,
  verb: 'gv.workarea_relate',
  input: z.strictObject({
    workarea: workareaParam,
    kind: z.enum(WORKAREA_RELATION_KINDS),
    target: workareaParam,
    space,
    note,
    producer: producerParam.optional(),
  }),
  output: z.object({
    space: z.string(),
    workarea: z.string(),
    kind: z.enum(WORKAREA_RELATION_KINDS),
    target: z.string(),
    changed: z.boolean(),
    event_id: z.string().optional(),
  }),
  params: (a) =>
    present({ workarea: a.workarea, kind: a.kind, target: a.target, space: a.space, note: a.note, producer: a.producer }),
  answer: (r) => r,
});

export const lineageTool = defineTool({
  name: 'gate.lineage',
  tiers: ['client', 'plugin'],
  description: 'The work areas of a space as a graph: nodes with writers and counts, and path, declared and derived edges.',
  annotations: READ_ONLY,
  verb: 'gv.lineage',
  input: z.strictObject({ space, workarea: workareaParam.optional() }),
  output: z.object({
    space: z.string(),
    workarea: z.string().nullable(),
    nodes: z.array(z.object({ name: z.string() }).catchall(z.unknown())),
    edges: z.array(z.object({ source: z.string(), target: z.string(), provenance: z.enum(['path', 'declared', 'derived']) }).catchall(z.unknown())),
  }),
  params: (a) => present({ space: a.space, workarea: a.workarea }),
  answer: (r) => r,
});

