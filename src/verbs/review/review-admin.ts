import { pinnedOrg } from '../../submission/outcome-pull.js';
import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, limitParam } from '../param-types.js';
import { visibleRowsClause } from '../../access/visible-rows.js';
import { invalidParams } from '../../gate-error.js';
import { COUNTERSIGN_CLASSES } from '../../domain/countersign-classes.js';
import { settlePending } from '../../review/settlement.js';

const backendCheckAnswer = z.object({
  reachable: z.boolean(),
  credential: z.string(),
  model: z.string(),
  effort: z.string().nullable(),
  structured_outputs: z.boolean(),
  cost_tokens: z.number(),
  words: z.string(),
  backend: z.string(),
});

export const backendCheckVerb = defineVerb({
  name: 'gv.backend_check',
  role: 'admin',
  summary: "Probe a model backend: reachable, credential, model, effort, structured outputs (default: the positive stance's backend).",
  params: z.strictObject({ backend: z.string().min(1).max(64).optional() }),
  answer: backendCheckAnswer,
  uses: ['review'],
  async handler({ review }, p) {
    const settings = review.board.settings;
    const name = p.backend ?? settings.stances[0]!.backend.backend.name;
    const backend = settings.backends.get(name);
    if (backend === undefined) {
      throw invalidParams(`unknown backend table ${JSON.stringify(name)}; the backends are: ${[...settings.backends.keys()].join(', ')}`, { field: 'backend' });
    }
    const check = await review.board.stage.check(backend.backend);
    return { backend: name, ...check };
  },
});

const settlePendingAnswer = z.object({
  examined: z.number(),
  promoted: z.number(),
  ratified: z.number(),
  artifact_ids: z.array(z.string()),
  held: z.record(z.string(), z.number()),
});

export const settlePendingVerb = defineVerb({
  name: 'gv.settle_pending',
  role: 'reviewer',
  summary: 'Promote, with the deployment signing, the scored rows of auto spaces whose quorum is met and which need no person.',
  params: z.strictObject({ limit: limitParam(10_000).optional() }),
  answer: settlePendingAnswer,
  uses: ['store', 'review', 'crews', 'config'],
  handler({ store, review, crews, config }, p) {
    return settlePending({ store, review, crews, config }, p.limit ?? 500);
  },
});

const countersignStatusAnswer = z.union([
  z.object({
    artifact_id: z.string(),
    state: z.string(),
    trust_class: z.string(),
    requires_countersign: z.boolean(),
    provisional: z.boolean(),
    countersigned: z.boolean(),
    awaiting: z.boolean(),
    authority: z.union([
      z.object({ configured: z.boolean(), words: z.string() }),
      z.object({
        configured: z.boolean(),
        url: z.string(),
        org_deployment_id: z.string().nullable(),
        words: z.string(),
      }),
    ]),
  }),
  z.object({
    authority: z.union([
      z.object({ configured: z.boolean(), words: z.string() }),
      z.object({
        configured: z.boolean(),
        url: z.string(),
        org_deployment_id: z.string().nullable(),
        words: z.string(),
      }),
    ]),
    provisional: z.number(),
    ratified_awaiting: z.number(),
    countersigned: z.number().int(),
  }),
]);

export const countersignStatusVerb = defineVerb({
  name: 'gv.countersign_status',
  role: 'reader',
  summary: "Whether a row (or the gate's promotions) still wait for a second authority's countersign.",
  params: z.strictObject({ artifact_id: artifactIdParam.optional() }),
  answer: countersignStatusAnswer,
  uses: ['store', 'access', 'config'],
  handler({ caller, store, access, config }, p) {
    const org = pinnedOrg({ store, config });
    const authority =
      config.org.url === ''
        ? { configured: false, words: 'this gate has no second authority; countersigns come from an org gate ([org].url)' }
        : { configured: true, url: config.org.url, org_deployment_id: org, words: org === null ? 'the org gate is configured; its key is pinned when its outcomes are first read' : 'countersigns come from the pinned org gate' };
    const countersignedRow = (id: string) => store.journalReads.hasCountersign(id);
    if (p.artifact_id !== undefined) {
      const row = access.readableArtifact(caller, p.artifact_id);
      const requires = COUNTERSIGN_CLASSES.has(row.trust_class);
      return {
        artifact_id: row.artifact_id,
        state: row.state,
        trust_class: row.trust_class,
        requires_countersign: requires,
        provisional: row.provisional === 1,
        countersigned: countersignedRow(row.artifact_id),
        awaiting: row.state === 'L3_RATIFIED' || row.provisional === 1,
        authority,
      };
    }
    const visible = visibleRowsClause({ store, access }, caller);
    return {
      ...store.artifacts.countersignCounts(visible),
      authority,
    };
  },
});
