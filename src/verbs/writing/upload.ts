import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { decodeBase64 } from './content-decoding.js';
import { invalidParams } from '../../gate-error.js';
import { checkUploadBounds } from '../../attachments/upload-bounds.js';
import { completeUpload, isLive, owedCompletion, underUploadLock } from '../../attachments/upload-completion.js';
import { failpoint } from '../../failpoints.js';
import type { UploadRow } from '../../projections/attachment-reads.js';

export const contentHashParam = z
  .string()
  .regex(/^(sha256:)?[0-9a-f]{64}$/, 'must be sha256:<64 lower-case hex> or the 64 hex alone')
  .transform((s) => (s.startsWith('sha256:') ? s : `sha256:${s}`));

const params = z.strictObject({
  sha256: contentHashParam,
  size_bytes: z.number().int().min(1),
  offset: z.number().int().min(0).optional(),
  content: z.string().min(1).optional(),
});

function completedAnswer(row: UploadRow) {
  return {
    sha256: row.sha256,
    size_bytes: row.size_bytes,
    received: row.size_bytes,
    complete: true,
    media_type: row.media_type,
    prepared: row.prepared === null ? null : row.prepared === 1,
    stripped: JSON.parse(row.stripped ?? '[]') as string[],
  };
}

const uploadAnswer = z.union([
  z.object({
    sha256: z.string(),
    size_bytes: z.number().int(),
    received: z.number().int(),
    complete: z.boolean(),
    media_type: z.string().nullable(),
    prepared: z.boolean().nullable(),
    stripped: z.array(z.string()),
  }),
  z.object({
    sha256: z.string(),
    size_bytes: z.number().int(),
    received: z.number().int(),
    complete: z.boolean(),
    reason: z.string(),
  }),
  z.object({
    sha256: z.string(),
    size_bytes: z.number().int(),
    received: z.number().int(),
    complete: z.boolean(),
  }),
]);

export const uploadVerb = defineVerb({
  name: 'gv.upload',
  role: 'agent',
  summary:
    'Upload an attachment in chunks: {sha256, size_bytes} asks how far an upload got; {sha256, size_bytes, offset, content (base64)} adds the chunk at offset. Complete when the whole hash matches.',
  params,
  door: {},
  answer: uploadAnswer,
  uses: ['store', 'pipeline', 'config', 'clock', 'log'],
  handler(ctx, p) {
    const { caller, store, pipeline, config, clock, log } = ctx;
    return underUploadLock({ pipeline }, caller.identity, p.sha256, async () => {
      const maxBytes = config.attachments.max_bytes;
      if (p.size_bytes > maxBytes) {
        throw invalidParams(`an attachment is at most ${maxBytes} bytes; this one declares ${p.size_bytes}`, { field: 'size_bytes' });
      }
      const owed = await owedCompletion({ store, pipeline, config, clock }, caller.identity, p.sha256);
      if (owed !== null && owed.size_bytes === p.size_bytes) {
        // Every byte arrived but the completion did not (a crash, a failed try): it is made now, and
        // the call is answered as the live last chunk was, except that a question is not refused.
        const done = await completeUpload({ store, pipeline, config, log }, owed);
        if ('discarded' in done) {
          if (p.content !== undefined) throw done.refusal;
          return { sha256: p.sha256, size_bytes: p.size_bytes, received: 0, complete: false, reason: done.discarded };
        }
        return completedAnswer(done.completed);
      }
      const row = store.attachments.upload(caller.identity, p.sha256);
      if (row?.state === 'completed') {
        if (row.size_bytes !== p.size_bytes) {
          throw invalidParams(`this upload completed with size_bytes ${row.size_bytes}`, { field: 'size_bytes' });
        }
        return completedAnswer(row);
      }
      const live = isLive({ config, clock }, row);
      if (live && row.size_bytes !== p.size_bytes) {
        throw invalidParams(`an upload of this hash with size_bytes ${row.size_bytes} is under way`, { field: 'size_bytes' });
      }
      const received = live ? await pipeline.attachmentStore.partSize(caller.identity, p.sha256) : 0;
      if (p.content === undefined) {
        if (p.offset !== undefined) throw invalidParams('offset goes with content', { field: 'offset' });
        const discarded = row?.state === 'abandoned' && row.discard_reason !== null ? { reason: row.discard_reason } : {};
        return { sha256: p.sha256, size_bytes: p.size_bytes, received, complete: false, ...discarded };
      }
      if (p.offset === undefined) throw invalidParams('missing field: offset', { field: 'offset' });
      if (p.offset !== received) {
        throw invalidParams(`this upload continues at offset ${received}, not ${p.offset}`, { field: 'offset', received });
      }
      const chunk = decodeBase64(p.content, 'content');
      if (chunk.length === 0) throw invalidParams('a chunk has at least one byte', { field: 'content' });
      if (received + chunk.length > p.size_bytes) {
        throw invalidParams(`the chunk runs past size_bytes (${received} + ${chunk.length} > ${p.size_bytes})`, { field: 'content' });
      }
      if (!live) {
        await store.writer.write(() => {
          checkUploadBounds({ store, config, clock }, caller.identity, p.size_bytes);
          store.journal.append('upload-started', caller.identity, { sha256: p.sha256, size_bytes: p.size_bytes });
        });
      }
      await pipeline.attachmentStore.appendChunk(caller.identity, p.sha256, received, chunk);
      if (received + chunk.length < p.size_bytes) {
        return { sha256: p.sha256, size_bytes: p.size_bytes, received: received + chunk.length, complete: false };
      }
      failpoint('upload-before-completion');
      const done = await completeUpload({ store, pipeline, config, log }, store.attachments.upload(caller.identity, p.sha256)!);
      if ('discarded' in done) throw done.refusal;
      return completedAnswer(done.completed);
    });
  },
});
