import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { contentHashParam } from '../writing/upload.js';
import { invalidParams, unknownArtifact } from '../../gate-error.js';
import { atLeast } from '../../domain/roles.js';
import { maskedName } from '../../attachments/masked-name.js';

/** One page of an attachment (docs/protocol.md#limits). */
export const ATTACHMENT_PAGE_BYTES = 524_288;

const attachmentAnswer = z.union([
  z.object({
    size: z.number().int(),
    offset: z.number().int(),
    content: z.string(),
    next_offset: z.number().int().nullable(),
    content_hash: z.string(),
    media_type: z.string(),
    name: z.string().nullable(),
    copy: z.string(),
  }),
  z.object({
    prepared: z.literal(false),
    content_hash: z.string(),
    media_type: z.string(),
    name: z.string().nullable(),
    copy: z.string(),
  }),
  z.object({
    metadata: z.unknown().optional(),
    served_hash: z.string().nullable(),
    stripped: z.array(z.string()),
    size: z.number().int(),
    offset: z.number().int(),
    content: z.string(),
    next_offset: z.number().int().nullable(),
    content_hash: z.string(),
    media_type: z.string(),
    name: z.string().nullable(),
    copy: z.string(),
  }),
]);

export const attachmentVerb = defineVerb({
  name: 'gv.attachment',
  role: 'reader',
  summary:
    'One page (524,288 bytes, base64) of an attachment of a row the caller may read: the served copy (images stripped of metadata), or the original for its writer and reviewers.',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    content_hash: contentHashParam,
    offset: z.number().int().min(0).optional(),
    original: z.boolean().optional(),
  }),
  answer: attachmentAnswer,
  uses: ['store', 'access', 'pipeline'],
  async handler({ caller, store, access, pipeline }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    if (row.erased_seq !== null) throw invalidParams("this row's content was erased: its attachments left the gate with it; only its existence and metadata are served", { reason: 'erased' });
    const attachment = store.attachments.ofRow(row.artifact_id).find((a) => a.content_hash === p.content_hash);
    // A hash the envelope does not name, and an original below writer and reviewer, are answered as an unknown id (rule U).
    if (attachment === undefined) throw unknownArtifact(p.artifact_id);
    const reviewer = atLeast(caller.role, 'reviewer');
    const original = p.original === true;
    if (original && !reviewer && row.writer_identity !== caller.identity) throw unknownArtifact(p.artifact_id);
    const copy = original ? 'original' : 'served';
    const head = { content_hash: attachment.content_hash, media_type: attachment.media_type, name: maskedName(attachment.name), copy };
    if (!original && attachment.prepared === 0) return { ...head, prepared: false as const };

    const hash = original ? attachment.content_hash : attachment.served_hash!;
    const size = original ? attachment.size_bytes : attachment.served_size!;
    const offset = p.offset ?? 0;
    if (offset >= size) throw invalidParams(`offset ${offset} is past the end of the ${copy} copy (${size} bytes)`, { field: 'offset', size });
    const bytes = await pipeline.attachmentStore.readRange(hash, offset, Math.min(ATTACHMENT_PAGE_BYTES, size - offset));
    const next = offset + bytes.length;
    const last = next >= size;

    // A page served whole and in order extends this identity's read of this copy; the read
    // that reaches the end is what lets its promoting or clearing signature count.
    await store.writer.write(() => {
      if (store.attachments.progress(caller.identity, row.artifact_id, attachment.content_hash, copy) !== offset) return;
      store.journal.append('attachment-served', caller.identity, {
        artifact_id: row.artifact_id,
        space: row.space,
        ...(row.workarea === null ? {} : { workarea: row.workarea }),
        content_hash: attachment.content_hash,
        copy,
        offset,
        length: bytes.length,
        next_offset: next,
        to_end: last,
      });
    });

    const page = { ...head, size, offset, content: bytes.toString('base64'), next_offset: last ? null : next };
    if (!last) return page;
    // The last page also says what the served copy is and what was stripped from it.
    return {
      ...page,
      served_hash: attachment.served_hash,
      stripped: JSON.parse(attachment.stripped) as string[],
      ...(reviewer && attachment.metadata_hash !== null ? { metadata: JSON.parse(store.artifacts.body(attachment.metadata_hash) ?? '[]') as unknown } : {}),
    };
  },
});
