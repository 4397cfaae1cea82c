import type { ImageTask, UploadPreparation } from '../workers/image/pool-entry.js';
import { BoundedPool, type BoundedPoolOptions } from './bounded-pool.js';

export type Prepared = Exclude<UploadPreparation, { served: ArrayBuffer }> | (Omit<Extract<UploadPreparation, { served: ArrayBuffer }>, 'served'> & { served: Uint8Array });

/**
 * The image stage: each completed upload goes once to the Piscina `image` pool, which
 * names its media type from the bytes and, for an image, makes the served copy with sharp.
 */
export class ImageStage {
  private readonly pool: BoundedPool;

  constructor(
    private readonly maxPixels: number,
    options: BoundedPoolOptions,
  ) {
    this.pool = new BoundedPool(new URL('../workers/image/pool-entry.js', import.meta.url), options);
  }

  /** `bytes` must own its whole buffer (it is transferred, and unusable here afterwards). */
  async prepare(bytes: Uint8Array): Promise<Prepared> {
    const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
    const task: ImageTask = { bytes: buffer, maxPixels: this.maxPixels };
    const result = await this.pool.run<UploadPreparation>(task, [buffer]);
    if (!('served' in result)) return result;
    return { ...result, served: new Uint8Array(result.served) };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
