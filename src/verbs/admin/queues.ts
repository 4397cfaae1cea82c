import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import type { QueueReading } from '../../../pipeline/queue-reading.js';
import type { House } from '../house.js';

/** The pipeline's stages in the order a row meets them, each with the unit it counts. */
function stages(house: Pick<House, 'pipeline' | 'review'>): Array<{ stage: string; unit: string; reading: QueueReading }> {
  return [
    { stage: 'scan', unit: 'claims', reading: house.pipeline.scan.reading() },
    { stage: 'image', unit: 'uploads', reading: house.pipeline.images.reading() },
    { stage: 'bundle', unit: 'archives', reading: house.pipeline.bundles.reading() },
    { stage: 'grade', unit: 'model calls', reading: house.review.board.stage.reading() },
    { stage: 'embed', unit: 'rows', reading: house.pipeline.embed.reading() },
  ];
}

/**
 * What the pipeline holds right now, for an operator watching it: each stage's queue and
 * the quarantine's depth against its bound. Counts only, no row: a reviewer already sees
 * every held row, and below reviewer no count of held rows is named (spec 1, -32006).
 */
const queuesAnswer = z.object({
  stages: z.array(z.object({
    queued: z.number().int(),
    running: z.number(),
    threads: z.number(),
    bound: z.number().nullable(),
    room: z.number().nullable(),
    oldest_wait_ms: z.number().int().nullable(),
    stage: z.string(),
    unit: z.string(),
  })),
  quarantine: z.object({ held: z.number(), max_depth: z.number(), room: z.number() }),
});

export const queuesVerb = defineVerb({
  name: 'gv.queues',
  role: 'reviewer',
  summary: "Each pipeline stage's queued and running items, its bound and its oldest wait; the quarantine's depth against max_depth.",
  params: z.strictObject({}),
  answer: queuesAnswer,
  handler({ store, pipeline, review, config }) {
    const held = store.artifacts.countHeld();
    const maxDepth = config.quarantine.max_depth;
    return {
      stages: stages({ pipeline, review }).map(({ stage, unit, reading }) => ({ stage, unit, ...reading })),
      quarantine: { held, max_depth: maxDepth, room: Math.max(0, maxDepth - held) },
    };
  },
});
