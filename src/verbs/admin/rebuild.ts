import { z } from 'zod';
import { join } from 'node:path';
import { defineVerb } from '../define-verb.js';
import { internalError } from '../../gate-error.js';
import { heldTextCheckAnswer, vectorCheckAnswer } from '../answer-types.js';

const rebuildAnswer = z.object({
  held: heldTextCheckAnswer,
  vectors: vectorCheckAnswer,
  equal: z.boolean(),
  events: z.number().int(),
  live_digest: z.string(),
  rebuilt_digest: z.string(),
  tables: z.record(z.string(), z.object({ live: z.string(), rebuilt: z.string(), equal: z.boolean() })),
  ms: z.number(),
});

export const rebuildVerb = defineVerb({
  name: 'gv.rebuild',
  role: 'admin',
  summary: 'Replay the journal into fresh tables and compare them with the live views; check the held rows\' text index and embed every served row again to check its stored vector.',
  params: z.strictObject({}),
  answer: rebuildAnswer,
  uses: ['store', 'recall', 'pipeline', 'deployment', 'log'],
  async handler({ caller, store, recall, pipeline, deployment, log }) {
    const started = performance.now();
    // Whatever is queued commits first, so the comparison sees one settled journal.
    store.writer.flush();
    const report = store.rebuildViews(join(deployment.paths.home, 'rebuild-scratch.db'));
    if (!report.equal) {
      const differing = Object.entries(report.tables).filter(([, t]) => !t.equal).map(([name]) => name);
      log.error(`rebuild differs from live state in: ${differing.join(', ')}`, undefined, { by: caller.identity });
      throw internalError(`rebuild differs from live state in: ${differing.join(', ')}`, { ...report, differing });
    }
    // Vectors and the held index are derived, not journaled: they are recomputed rather than
    // replayed, and a stale or missing entry is rewritten rather than refused.
    const held = await recall.heldText.verify();
    const vectors = await pipeline.embed.verify();
    log.info('gv.rebuild: the views equal the journal replayed', {
      by: caller.identity,
      rewritten: vectors.rewritten,
      missing: vectors.missing,
      held_rewritten: held.rewritten,
      ms: Math.round(performance.now() - started),
    });
    return { ...report, held, vectors };
  },
});
