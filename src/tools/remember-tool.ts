import { z } from 'zod';
import { KINDS, RECORDED_CLASSES, isKind } from '../domain/kinds.js';
import { addressedToParam, artifactIdParam, producerParam, spaceParam, workareaParam } from '../verbs/param-types.js';
import { IDEMPOTENT_WRITE, defineTool, present } from './define-tool.js';

/** What gate.remember takes as content_type: a kind an agent proposes, or a recorded-path class (docs/tool-endpoint.md). */
export const REMEMBER_TYPES = [...KINDS.filter((k) => k !== 'question' && k !== 'answer'), ...RECORDED_CLASSES] as const;

const contentType = z.enum(REMEMBER_TYPES, {
  error: () => `content_type must be a kind (${KINDS.filter((k) => k !== 'question' && k !== 'answer').join(', ')}) or a recorded-path class (${RECORDED_CLASSES.join(', ')})`,
});

const fields = {
  content: z.string().describe('the artifact body'),
  content_type: contentType,
  source_uri: z.string().min(1).max(4096).describe('where the content came from'),
  space: spaceParam.optional().describe('default main'),
  derives_from: z.array(artifactIdParam).max(64).optional().describe('parent artifact ids'),
  producer: producerParam.optional().describe('who in the harness wrote it; the main thread is {name: main, kind: agent}'),
  addressed_to: addressedToParam.optional().describe('steering only: the producers it directs'),
};

const input = z.strictObject({ ...fields, workarea: workareaParam.describe('the work area written into (up to 8 segments)') });
const pluginInput = z.strictObject({
  ...fields,
  workarea: workareaParam.optional().describe("default this session's own area plugin/<session> (a subagent's: plugin/<session>/<name>)"),
});

/** L1 scanned clean, L1b a scanner finding holds it; recorded evidence has no sub-level. */
export function subLevelOf(state: string): 'L1' | 'L1b' | undefined {
  if (state === 'L1_SCANNED') return 'L1';
  if (state === 'L1B_FLAGGED') return 'L1b';
  return undefined;
}

export const rememberTool = defineTool({
  name: 'gate.remember',
  tiers: ['client', 'plugin'],
  description:
    'Propose a claim. It is scanned and held in quarantine: nobody else can read it until a reviewer who did not write it promotes it. Returns its id and state.',
  annotations: IDEMPOTENT_WRITE,
  verb: 'gv.ingest',
  input,
  pluginInput,
  refused: { trust_class: 'trust_class is refused: the gate derives it' },
  output: z.object({
    artifact_id: z.string().describe('sha256:<64 hex> (on the plugin tier local:<id> until a gate stamps it)'),
    state: z.string(),
    sub_level: z.enum(['L1', 'L1b']).optional(),
    findings_count: z.number().int().optional(),
    space: z.string().optional(),
    workarea: z.string().nullable().optional(),
    duplicate: z.boolean().optional(),
    local_id: z.string().optional().describe('plugin tier: the local handle this id was stamped for'),
  }),
  params: (a) =>
    present({
      content: a.content,
      ...(isKind(a.content_type) ? { kind: a.content_type } : { content_type: a.content_type }),
      source_uri: a.source_uri,
      workarea: a.workarea,
      space: a.space,
      derives_from: a.derives_from,
      producer: a.producer,
      addressed_to: a.addressed_to,
    }),
  answer: (r) =>
    present({
      artifact_id: r.artifact_id,
      state: r.state,
      sub_level: subLevelOf(r.state),
      findings_count: r.findings_count,
      space: r.space,
      workarea: r.workarea,
      duplicate: r.duplicate,
    }),
});
