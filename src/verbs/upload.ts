import { z } from 'zod';
import { defineVerb, type VerbContext } from './define-verb.js';
import { decodeBase64 } from './content-decoding.js';
import { invalidParams } from '../gate-error.js';
import { sha256Hex } from '../journal/canonical-json.js';
import { checkUploadBounds } from '../attachments/upload-bounds.js';
import { maskedMetadata } from '../attachments/reviewer-metadata.js';
import type { UploadRow } from '../projections/attachment-reads.js';

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
type Params = z.output<typeof params>;

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

/** Gives up an upload: its partial bytes go and it stops counting against quota and budget. */
async function abandon(ctx: VerbContext, sha256: string, reason: string): Promise<void> {
  const { gate, caller } = ctx;
  gate.attachmentStore.dropPart(caller.identity, sha256);
  await gate.writer.write(() => gate.journal.append('upload-abandoned', caller.identity, { sha256, reason }));
}

/**
 * The last chunk arrived: the whole hash must match, then the image pool names the media
 * type from the bytes and, for an image, makes the served copy. Only then does the upload
 * become the store's object and a journal fact.
 */
async function complete(ctx: VerbContext, p: Params) {
  const { gate, caller } = ctx;
  const store = gate.attachmentStore;
  const actual = await store.partHash(caller.identity, p.sha256);
  if (actual !== p.sha256) {
    await abandon(ctx, p.sha256, 'hash_mismatch');
    throw invalidParams(`the bytes received hash to ${actual}, not ${p.sha256}; upload them again from offset 0`, {
      field: 'sha256',
      reason: 'hash_mismatch',
    });
  }
  const prepared = await gate.images.prepare(await store.readPart(caller.identity, p.sha256));
  if (prepared.outcome === 'pixel_limit') {
    await abandon(ctx, p.sha256, 'pixel_limit');
    throw invalidParams(
      `the image declares ${prepared.width} x ${prepared.height} pixels, over the limit of ${gate.config.image.max_pixels}`,
      { field: 'content', reason: 'pixel_limit' },
    );
  }
  if (prepared.outcome === 'refused') {
    await abandon(ctx, p.sha256, prepared.reason);
    throw invalidParams(prepared.message, { field: 'content', reason: prepared.reason });
  }
  const data: Record<string, unknown> = { sha256: p.sha256, size_bytes: p.size_bytes, media_type: prepared.media_type, stripped: [] };
  let metadata: Buffer | null = null;
  if (prepared.outcome === 'prepared') {
    const servedHash = `sha256:${sha256Hex(prepared.served)}`;
    store.putObject(servedHash, prepared.served);
    metadata = Buffer.from(JSON.stringify(await maskedMetadata(gate, prepared.metadata)), 'utf8');
    Object.assign(data, {
      served_hash: servedHash,
      served_size: prepared.served.length,
      stripped: prepared.stripped,
      prepared: true,
      metadata_hash: `sha256:${sha256Hex(metadata)}`,
    });
  } else if (prepared.outcome === 'unwalkable') {
    // No served copy exists: the served copy answers prepared false, with no content.
    data['prepared'] = false;
  } else {
    data['served_hash'] = p.sha256;
    data['served_size'] = p.size_bytes;
  }
  store.adoptPart(caller.identity, p.sha256);
  await gate.writer.write(() => {
    if (metadata !== null) gate.journal.putBlob(data['metadata_hash'] as string, metadata);
    gate.journal.append('upload-completed', caller.identity, data);
  });
  return completedAnswer(gate.attachments.upload(caller.identity, p.sha256)!);
}

export const uploadVerb = defineVerb({
  name: 'gv.upload',
  role: 'agent',
  summary:
    'Upload an attachment in chunks: {sha256, size_bytes} asks how far an upload got; {sha256, size_bytes, offset, content (base64)} adds the chunk at offset. Complete when the whole hash matches.',
  params,
  handler(ctx, p) {
    const { gate, caller } = ctx;
    return gate.uploadLocks.run(`${caller.identity}\n${p.sha256}`, async () => {
      const { max_bytes: maxBytes, upload_ttl_ms: ttl } = gate.config.attachments;
      if (p.size_bytes > maxBytes) {
        throw invalidParams(`an attachment is at most ${maxBytes} bytes; this one declares ${p.size_bytes}`, { field: 'size_bytes' });
      }
      const row = gate.attachments.upload(caller.identity, p.sha256);
      if (row?.state === 'completed') {
        if (row.size_bytes !== p.size_bytes) {
          throw invalidParams(`this upload completed with size_bytes ${row.size_bytes}`, { field: 'size_bytes' });
        }
        return completedAnswer(row);
      }
      const live = row?.state === 'started' && row.started_ts > gate.clock.now() - ttl;
      if (live && row.size_bytes !== p.size_bytes) {
        throw invalidParams(`an upload of this hash with size_bytes ${row.size_bytes} is under way`, { field: 'size_bytes' });
      }
      const received = live ? await gate.attachmentStore.partSize(caller.identity, p.sha256) : 0;
      if (p.content === undefined) {
        if (p.offset !== undefined) throw invalidParams('offset goes with content', { field: 'offset' });
        return { sha256: p.sha256, size_bytes: p.size_bytes, received, complete: false };
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
        await gate.writer.write(() => {
          checkUploadBounds(gate, caller.identity, p.size_bytes);
          gate.journal.append('upload-started', caller.identity, { sha256: p.sha256, size_bytes: p.size_bytes });
        });
      }
      await gate.attachmentStore.appendChunk(caller.identity, p.sha256, received, chunk);
      if (received + chunk.length < p.size_bytes) {
        return { sha256: p.sha256, size_bytes: p.size_bytes, received: received + chunk.length, complete: false };
      }
      return complete(ctx, p);
    });
  },
});
