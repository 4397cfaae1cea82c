import { z } from 'zod';
import { artifactIdParam } from '../verbs/param-types.js';
import { READ_ONLY, defineTool } from './define-tool.js';
import { statusAnswer, whyAnswer } from '../verbs/reading/status.js';
import { tipAnswer } from '../verbs/curation/tip.js';

/** A plugin-tier handle: the gate's id, or `local:<id>` for a claim no gate has stamped yet. */
export const LOCAL_HANDLE = /^local:[0-9a-f]{32}$/;
const pluginHandle = z.union([
  z.string().regex(LOCAL_HANDLE, 'a local handle is local:<32 hex>'),
  artifactIdParam,
]);

const byId = z.strictObject({ artifact_id: artifactIdParam.describe('sha256:<64 hex>, or the 64 hex alone') });
const byHandle = z.strictObject({ artifact_id: pluginHandle.describe('sha256:<64 hex> or a local:<id> handle') });
const passThrough = (r: any) => r as Record<string, unknown>;
/** On the plugin tier, an answer about a claim a gate stamped names the local handle it was stamped for. */
export const localId = z.string().optional().describe('plugin tier: the local handle this id was stamped for');

export const statusTool = defineTool({
  name: 'gate.status',
  tiers: ['client', 'plugin'],
  description: "A claim's position and the reason it is there; the position is in `state`.",
  annotations: READ_ONLY,
  verb: 'gv.status',
  input: byId,
  pluginInput: byHandle,
  output: statusAnswer.extend({ local_id: localId }),
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
  output: whyAnswer,
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
  output: tipAnswer,
  params: (a) => ({ artifact_id: a.artifact_id }),
  answer: passThrough,
});
