import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { limitParam, spaceParam, workareaParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { bodyText } from '../../projections/body-text.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { House } from '../house.js';

/** The recorded classes gv.records reads (docs/protocol.md#gvrecords); other recorded classes are read with gv.node. */
export const RECORD_CLASSES = ['event', 'usage_record', 'state_snapshot'] as const;
/** A record's body is served when its JSON is at most this many bytes; a larger one is null. */
export const RECORD_BODY_MAX_BYTES = 4096;

const params = z.strictObject({
  space: spaceParam,
  classes: z
    .array(z.enum(RECORD_CLASSES))
    .min(1)
    .refine((c) => new Set(c).size === c.length, 'classes repeats a class'),
  limit: limitParam(200),
  workarea: workareaParam.optional(),
  since: z.number().int().min(0).optional(),
});

type BodyRefusal = 'too_large' | 'not_json' | 'not_text' | 'content_erased';

/**
 * The body a reviewer is served of a record: its masked form (what graders see; the bytes
 * themselves when the scanner masked nothing), parsed as JSON when it is at most 4,096
 * bytes. Anything else is null, with the reason in closed words.
 */
function recordBody(house: Pick<House, 'store'>, row: ArtifactRow): { body: unknown } | { body: null; body_refused: BodyRefusal } {
  const bytes = house.store.artifacts.servedBytes(row, 'masked');
  if (bytes === null) return { body: null, body_refused: 'content_erased' };
  if (bytes.length > RECORD_BODY_MAX_BYTES) return { body: null, body_refused: 'too_large' };
  const text = bodyText(bytes);
  if (text === null) return { body: null, body_refused: 'not_text' };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: null, body_refused: 'not_json' };
  }
}

const recordsAnswer = z.object({
  items: z.array(z.union([
    z.object({
      body: z.unknown(),
      artifact_id: z.string(),
      class: z.string(),
      workarea: z.string().nullable(),
      writer_identity: z.string(),
      ts: z.number().int(),
    }),
    z.object({
      body: z.null(),
      body_refused: z.enum(['too_large', 'not_json', 'not_text', 'content_erased']),
      artifact_id: z.string(),
      class: z.string(),
      workarea: z.string().nullable(),
      writer_identity: z.string(),
      ts: z.number().int(),
    }),
  ])),
  truncated: z.boolean(),
});

export const recordsVerb = defineVerb({
  name: 'gv.records',
  role: 'reviewer',
  summary: "A space's recorded evidence (events, usage records, state snapshots), oldest first, each with its JSON body when small.",
  params,
  answer: recordsAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    requireSpace({ store }, p.space);
    access.capabilities.require(caller, p.space, 'read');
    // One row past the page says whether the page is truncated.
    const rows = store.artifacts.recordsIn(p.space, p.classes, p.limit + 1, p.workarea, p.since);
    const page = rows.slice(0, p.limit);
    return {
      items: page.map((row) => ({
        artifact_id: row.artifact_id,
        class: row.content_type,
        workarea: row.workarea,
        writer_identity: row.writer_identity,
        ts: row.ts,
        ...recordBody({ store }, row),
      })),
      truncated: rows.length > p.limit,
    };
  },
});
