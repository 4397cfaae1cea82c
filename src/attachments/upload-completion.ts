import type { Prepared } from '../../pipeline/image-stage.js';
import { ErrorCode, GateError, invalidParams } from '../gate-error.js';
import { failpoint } from '../failpoints.js';
import { sha256Hex } from '../forms/canonical-json.js';
import type { UploadRow } from '../projections/attachment-reads.js';
import { maskedMetadata } from './reviewer-metadata.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';
import type { Store } from '../store/store.js';
import type { GateConfig } from '../config/keys.js';
import type { Clock } from '../clock.js';
import type { Log } from '../log.js';
import type { EventData } from '../journal/catalogue/catalogue.js';

/** What became of an upload whose bytes were all on disk: the store's object, or discarded with the refusal its last chunk answers. */
export type Completion = { completed: UploadRow } | { discarded: string; refusal: GateError };

/**
 * One writer's upload of one hash is worked on by one call at a time: chunks, status
 * queries and the completion a start owes all take this lock, so completing twice (a
 * retried last chunk beside a status query, or beside the start's recovery) is completing
 * once and answering the second from the journal.
 */
export function underUploadLock<T>(house: { readonly pipeline: PipelinePart }, writer: string, sha256: string, work: () => Promise<T>): Promise<T> {
  return house.pipeline.uploadLocks.run(`${writer}\n${sha256}`, work);
}

/** The journal records the discard first; the bytes go after, so a crash between leaves only a file the start sweeps away. */
async function discard(house: { readonly store: Store; readonly pipeline: PipelinePart }, writer: string, sha256: string, reason: string, refusal: GateError): Promise<Completion> {
  await house.store.writer.write(() => house.store.journal.append('upload-abandoned', writer, { sha256, reason }));
  house.pipeline.attachmentStore.dropPart(writer, sha256);
  return { discarded: reason, refusal };
}

/** An upload still under way: started, and not yet past its time to live (its bytes still count). */
export function isLive(house: { readonly config: GateConfig; readonly clock: Clock }, row: UploadRow | undefined): row is UploadRow & { state: 'started' } {
  return row?.state === 'started' && row.started_ts > house.clock.now() - house.config.attachments.upload_ttl_ms;
}

/**
 * The upload whose completion is owed: live, with all its bytes on disk, yet not completed,
 * because the process died between the last chunk's fsync and the journal, or an earlier
 * completion threw. Read under the upload's lock, so a completion running beside the
 * caller has either finished (and the row says completed) or not begun.
 */
export async function owedCompletion(house: { readonly store: Store; readonly pipeline: PipelinePart; readonly config: GateConfig; readonly clock: Clock }, writer: string, sha256: string): Promise<UploadRow | null> {
  const row = house.store.attachments.upload(writer, sha256);
  if (!isLive(house, row)) return null;
  return (await house.pipeline.attachmentStore.partSize(writer, sha256)) === row.size_bytes ? row : null;
}

/**
 * The bytes of a live upload are all on disk: the whole hash must match, then the image
 * pool names the media type from the bytes and, for an image, makes the served copy. Only
 * then does the upload become the store's object and a journal fact. Call it under the
 * upload's lock (see owedCompletion).
 *
 * Every way it ends leaves no upload stuck with all its bytes and no completion: a
 * completion; a discard (hash_mismatch; pixel_limit; prepare_failed when the image worker
 * died or failed on the bytes), after which the upload starts again from 0; or a thrown
 * error that keeps the bytes for the next try (a full image queue, a disk error), which
 * the next status query, chunk or start makes.
 */
export async function completeUpload(house: { readonly store: Store; readonly pipeline: PipelinePart; readonly config: GateConfig; readonly log: Log }, upload: UploadRow): Promise<Completion> {
  const { writer, sha256, size_bytes: size } = upload;
  const store = house.pipeline.attachmentStore;
  const actual = await store.partHash(writer, sha256);
  if (actual !== sha256) {
    return discard(house, writer, sha256, 'hash_mismatch', invalidParams(
      `the bytes received hash to ${actual}, not ${sha256}; upload them again from offset 0`,
      { field: 'sha256', reason: 'hash_mismatch' },
    ));
  }
  const bytes = await store.readPart(writer, sha256);
  let prepared: Prepared;
  try {
    prepared = await house.pipeline.images.prepare(bytes);
  } catch (error) {
    // A full queue passes as the answer to retry; anything else is the worker dying or failing on these
    // bytes, which a second try would repeat: the upload ends rather than stays unfinishable.
    if (error instanceof GateError && error.code === ErrorCode.quarantineFull) throw error;
    house.log.error(`the image pool failed on upload ${sha256.slice(0, 23)}; its bytes are discarded`, error);
    return discard(house, writer, sha256, 'prepare_failed', invalidParams(
      'the bytes could not be prepared (the image worker failed on them); nothing was kept',
      { field: 'content', reason: 'prepare_failed' },
    ));
  }
  if (prepared.outcome === 'pixel_limit') {
    return discard(house, writer, sha256, 'pixel_limit', invalidParams(
      `the image declares ${prepared.width} x ${prepared.height} pixels, over the limit of ${house.config.image.max_pixels}`,
      { field: 'content', reason: 'pixel_limit' },
    ));
  }
  if (prepared.outcome === 'refused') {
    // A bounded image worker refused the bytes (hostile metadata, its deadline, its memory, its exit): the same bytes meet the same end.
    return discard(house, writer, sha256, prepared.reason, invalidParams(prepared.message, { field: 'content', reason: prepared.reason }));
  }
  let data: EventData<'upload-completed'> = { sha256, size_bytes: size, media_type: prepared.media_type, stripped: [] };
  let metadata: Buffer | null = null;
  if (prepared.outcome === 'prepared') {
    const servedHash = `sha256:${sha256Hex(prepared.served)}`;
    store.putObject(servedHash, prepared.served);
    metadata = Buffer.from(JSON.stringify(await maskedMetadata(house, prepared.metadata)), 'utf8');
    data = {
      ...data,
      served_hash: servedHash,
      served_size: prepared.served.length,
      stripped: prepared.stripped,
      prepared: true,
      metadata_hash: `sha256:${sha256Hex(metadata)}`,
    };
  } else if (prepared.outcome === 'unwalkable') {
    // No served copy exists: the served copy answers prepared false, with no content.
    data = { ...data, prepared: false };
  } else {
    data = { ...data, served_hash: sha256, served_size: size };
  }
  store.linkPart(writer, sha256);
  failpoint('upload-between-object-and-journal');
  await house.store.writer.write(() => {
    if (metadata !== null) house.store.journal.putBlob(data.metadata_hash!, metadata);
    house.store.journal.append('upload-completed', writer, data);
  });
  store.dropPart(writer, sha256);
  return { completed: house.store.attachments.upload(writer, sha256)! };
}
