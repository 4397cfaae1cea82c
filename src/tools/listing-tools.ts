import { z } from 'zod';
import { limitParam } from '../verbs/param-types.js';
import { READ_ONLY, defineTool, present } from './define-tool.js';
import { pendingAnswer, pendingRowAnswer } from '../verbs/reading/inventory.js';
import { spacesAnswer } from '../verbs/admin/spaces.js';

export const pendingTool = defineTool({
  name: 'gate.pending',
  tiers: ['client', 'plugin'],
  description:
    'Claims waiting in quarantine that you may see, metadata only: ids, types, states, ages and finding counts, in `pending`. `findings` counts finding groups, one per scan and kind.',
  annotations: READ_ONLY,
  verb: 'gv.pending',
  input: z.strictObject({ limit: limitParam(1000).optional().describe('default 100, at most 1000') }),
  // On the plugin tier a claim no gate has classed yet has no trust class.
  output: pendingAnswer.extend({ pending: z.array(pendingRowAnswer.extend({ trust_class: z.string().nullable().describe('null on the plugin tier for a claim no gate has classed yet') })) }),
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
  output: spacesAnswer,
  params: () => ({}),
  answer: (r) => r,
});
