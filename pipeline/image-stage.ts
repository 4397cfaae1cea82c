import type { ImageTask, UploadPreparation } from '../workers/image/pool-entry.js';
import { BoundedPool, ownBuffer, type BoundedPoolOptions } from './bounded-pool.js';
import type { QueueReading } from './queue-reading.js';
import { TaskOverrun, type OverrunLimit } from './task-overrun.js';

/** Why an upload's bytes were refused by the image pool: each a `reason` of gv.upload's -32602. */
export type ImageRefusalReason = 'metadata_invalid' | 'image_deadline' | 'image_memory' | 'image_worker_exit';

export type Prepared =
  | Exclude<UploadPreparation, { served: ArrayBuffer } | { outcome: 'metadata_invalid' }>
  | (Omit<Extract<UploadPreparation, { served: ArrayBuffer }>, 'served'> & { served: Uint8Array })
  | { outcome: 'refused'; reason: ImageRefusalReason; message: string };

const OVERRUN_REASON: Record<OverrunLimit, ImageRefusalReason> = {
  deadline: 'image_deadline',
  memory: 'image_memory',
  worker_exit: 'image_worker_exit',
};

export interface ImageStageOptions extends BoundedPoolOptions {
  maxPixels: number;
}

/**
 * The image stage: each completed upload goes once to the Piscina `image` pool, which
 * names its media type from the bytes and, for an image, makes the served copy with sharp.
 * A task that overruns its deadline or heap limit costs its worker, not the gate: the
 * upload is refused with the limit as its reason, and the next upload gets a fresh worker.
 */
export class ImageStage {
  private readonly pool: BoundedPool;
  private readonly maxPixels: number;
  /** The deadline rounded up to sharp's whole seconds, so sharp never stops an image the deadline would let finish. */
  private readonly sharpTimeoutSeconds: number;

  constructor(options: ImageStageOptions) {
    const { maxPixels, ...pool } = options;
    this.maxPixels = maxPixels;
    this.sharpTimeoutSeconds = pool.deadlineMs === undefined ? 0 : Math.ceil(pool.deadlineMs / 1000);
    this.pool = new BoundedPool(new URL('../workers/image/pool-entry.js', import.meta.url), pool);
  }

  /** `bytes` must own its whole buffer (it is transferred, and unusable here afterwards). */
  async prepare(bytes: Uint8Array): Promise<Prepared> {
    // A Buffer's slice() shares its memory (a small one lives in Node's shared pool): copy instead.
    const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : ownBuffer(bytes);
    const task: ImageTask = { bytes: buffer, maxPixels: this.maxPixels, sharpTimeoutSeconds: this.sharpTimeoutSeconds };
    let result: UploadPreparation;
    try {
      result = await this.pool.run<UploadPreparation>(task, [buffer]);
    } catch (error) {
      if (!(error instanceof TaskOverrun)) throw error;
      return { outcome: 'refused', reason: OVERRUN_REASON[error.limit], message: `the image was not prepared: ${error.message}` };
    }
    if (result.outcome === 'metadata_invalid') {
      return { outcome: 'refused', reason: 'metadata_invalid', message: `the image's metadata claims more than its bytes hold (${result.detail})` };
    }
    if (!('served' in result)) return result;
    return { ...result, served: new Uint8Array(result.served) };
  }

  /** gv.queues: uploads waiting for the pool and in it. */
  reading(): QueueReading {
    return this.pool.reading();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
