import { z } from 'zod';
import { join } from 'node:path';
import { defineVerb } from '../define-verb.js';
import { emptySurfaces } from '../../projections/reconcile.js';
import { surfaceChangeAnswer } from '../answer-types.js';

const reconcileAnswer = z.object({
  changed: z.number(),
  spaces: z.record(z.string(), z.object({
    recall_index: surfaceChangeAnswer,
    hides: surfaceChangeAnswer,
    pins: surfaceChangeAnswer,
    tips: surfaceChangeAnswer,
    ranks: surfaceChangeAnswer,
    held_index: surfaceChangeAnswer,
  })),
  vectors: z.object({
    checked: z.number(),
    missing: z.number(),
    rewritten: z.number(),
    failed: z.number(),
    pending: z.number(),
  }),
  other_views_differ: z.array(z.string()),
  events: z.number().int(),
  ms: z.number(),
});

export const reconcileVerb = defineVerb({
  name: 'gv.reconcile',
  role: 'admin',
  summary: "Re-derive every space's consumer surfaces (recall indexes, vectors, hides, pins, tips, ranks) from the journal and say what changed.",
  params: z.strictObject({}),
  answer: reconcileAnswer,
  uses: ['store', 'recall', 'pipeline', 'deployment', 'log'],
  async handler({ caller, store, recall, pipeline, deployment, log }) {
    const started = performance.now();
    // Whatever is queued commits first, so the surfaces are put right against one settled journal.
    store.writer.flush();
    // Rows the embed stage has not given a vector yet are counted missing below, like drift: say how many were on their way.
    const pending = pipeline.embed.pending;
    const report = store.reconcileSurfaces(join(deployment.paths.home, 'reconcile-scratch.db'));
    // The held rows' index is derived from the views after each commit, not replayed: put right against them.
    await recall.heldText.verify((space, change) => {
      const bucket = (report.spaces[space] ??= emptySurfaces());
      bucket.held_index[change] += 1;
      report.changed += 1;
    });
    // Vectors are derived by the embed stage, not replayed: each served row is embedded again and a stale or missing vector rewritten.
    const vectors = await pipeline.embed.verify();
    const answer = {
      changed: report.changed + vectors.rewritten,
      spaces: report.spaces,
      vectors: { checked: vectors.checked, missing: vectors.missing, rewritten: vectors.rewritten, failed: vectors.failed, pending },
      other_views_differ: report.other_views_differ,
      events: report.events,
      ms: Math.round(performance.now() - started),
    };
    log.info('gv.reconcile: consumer surfaces re-derived from the journal', {
      by: caller.identity,
      changed: answer.changed,
      rewritten: vectors.rewritten,
      ms: answer.ms,
    });
    if (report.other_views_differ.length > 0) {
      log.error(`gv.reconcile: views that are not consumer surfaces differ from the journal: ${report.other_views_differ.join(', ')}`, undefined, { by: caller.identity });
    }
    return answer;
  },
});
