import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import type { QueueReading } from '../../../pipeline/queue-reading.js';
import type { House } from '../house.js';

/** The pipeline's stages in the order a row meets them, each with the unit it counts. */
function stages(house: Pick<House, 'pipeline' | 'review'>): Array<{ stage: string; unit: string; reading: QueueReading }> {
  const detect = house.review.detection;
  return [
    { stage: 'scan', unit: 'claims', reading: house.pipeline.scan.reading() },
    { stage: 'image', unit: 'uploads', reading: house.pipeline.images.reading() },
    { stage: 'bundle', unit: 'archives', reading: house.pipeline.bundles.reading() },
    // Only where an injection detector is configured (detector.url).
    ...(detect === null ? [] : [{ stage: 'detect', unit: 'rows', reading: detect.reading() }]),
    { stage: 'grade', unit: 'model calls', reading: house.review.board.stage.reading() },
    { stage: 'embed', unit: 'rows', reading: house.pipeline.embed.reading() },
  ];
}

/**
 * What the pipeline holds right now, for an operator watching it: each stage's queue and
 * the quarantine's depth against its bound. Counts only, no row: a reviewer already sees
 * every held row, and below reviewer no count of held rows is named (-32006, docs/protocol.md#error-codes).
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
  promoted_rescan: z
    .object({
      scanner: z.string().describe('the scanner label promoted rows are brought to'),
      per_minute: z.number().describe('scan.promoted_rescan_per_minute as the pass reads it now (0: switched off)'),
      walking: z.boolean().describe('a walk over the promoted rows is under way (false: resting, off or stopped)'),
      examined: z.number().int(),
      unchanged: z.number().int(),
      changed: z.number().int().describe('rows with a new finding, kept served'),
      held: z.number().int().describe('rows a new finding took from their readers'),
      skipped: z.number().int(),
      walks: z.number().int().describe('walks over the promoted rows completed since the start'),
    })
    .describe('the background rescan of the promoted rows an older scanner saw, counted since the gate started'),
});

export const queuesVerb = defineVerb({
  name: 'gv.queues',
  role: 'reviewer',
  summary: "Each pipeline stage's queued and running items, its bound and its oldest wait; the quarantine's depth against max_depth; the background rescan of promoted rows.",
  params: z.strictObject({}),
  answer: queuesAnswer,
  uses: ['store', 'pipeline', 'review', 'config'],
  handler({ store, pipeline, review, config }) {
    const held = store.artifacts.countHeld();
    const maxDepth = config.quarantine.max_depth;
    return {
      stages: stages({ pipeline, review }).map(({ stage, unit, reading }) => ({ stage, unit, ...reading })),
      quarantine: { held, max_depth: maxDepth, room: Math.max(0, maxDepth - held) },
      // The background pass over the promoted rows an older scanner saw: how far it is.
      promoted_rescan: pipeline.promotedRescan.reading(),
    };
  },
});
