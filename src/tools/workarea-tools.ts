import { z } from 'zod';
import { producerParam, spaceParam, workareaParam } from '../verbs/param-types.js';
import { WORKAREA_RELATION_KINDS, completeAnswer, workareaAnswer, workareaRelateAnswer } from '../verbs/curation/workareas.js';
import { lineageAnswer, lineageNode } from '../verbs/reading/lineage.js';
import { IDEMPOTENT_WRITE, READ_ONLY, defineTool, present } from './define-tool.js';

const space = spaceParam.optional().describe('default main');
const note = z.string().min(1).max(500).optional();
export const workareaTool = defineTool({
  name: 'gate.workarea',
  tiers: ['client', 'plugin'],
  description:
    'Your own claims in a work area with their states, its promoted claims, counts, and whether your part is open or complete. Metadata only; an area you never wrote into is refused.',
  annotations: READ_ONLY,
  verb: 'gv.workarea',
  input: z.strictObject({ workarea: workareaParam.describe('the area, 1 to 8 segments'), space }),
  output: workareaAnswer,
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
  output: completeAnswer,
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
  output: workareaRelateAnswer,
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
  output: lineageAnswer.extend({
    nodes: z.array(
      z.union([
        lineageNode,
        z
          .object({ name: z.string(), implicit: z.boolean(), local_rows: z.number().int(), last_write: z.number().int() })
          .describe('plugin tier with no gate: an area of the local store, its rows and last write'),
      ]),
    ),
  }),
  params: (a) => present({ space: a.space, workarea: a.workarea }),
  answer: (r) => r,
});

