/**
 * Piscina worker entry for the image pool: a completed upload's bytes in (transferred),
 * its media type out, and for an image its served copy (moved back), what was stripped,
 * and the stripped metadata's text.
 */
import { mediaTypeOf } from './media-type.js';
import { prepareImage, type Preparation } from './prepare-image.js';
import { transferred } from '../transferred-result.js';
import { markStarted } from '../task-started.js';
import { isArmed } from '../../src/failpoints.js';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

export interface ImageTask {
  bytes: ArrayBuffer;
  maxPixels: number;
  /** sharp's own timeout, whole seconds, none before the pool's deadline; 0: none (the pool has no deadline). */
  sharpTimeoutSeconds: number;
  /** Set by the pool when the task has a deadline; marked as the task starts. */
  startedAt?: BigInt64Array;
}

export type UploadPreparation = { media_type: string } & (
  | { outcome: 'not_an_image' }
  | Exclude<Preparation, { outcome: 'prepared' }>
  | (Omit<Extract<Preparation, { outcome: 'prepared' }>, 'served'> & { served: ArrayBuffer })
);

export default async function prepareUpload(task: ImageTask): Promise<UploadPreparation> {
  markStarted(task.startedAt);
  if (isArmed('image-worker-dies')) process.exit(70);
  const bytes = new Uint8Array(task.bytes);
  const media_type = await mediaTypeOf(bytes);
  if (!media_type.startsWith('image/')) return { media_type, outcome: 'not_an_image' };
  const preparation = await prepareImage(bytes, media_type, task.maxPixels, task.sharpTimeoutSeconds);
  if (preparation.outcome !== 'prepared') return { media_type, ...preparation };
  // A buffer of its own, so moving it detaches nothing else.
  const served = new Uint8Array(preparation.served.length);
  served.set(preparation.served);
  return transferred({ media_type, ...preparation, served: served.buffer }, [served.buffer]);
}
