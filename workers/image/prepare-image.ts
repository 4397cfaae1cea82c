/**
 * The served copy of an image attachment: walked first (an image that cannot be walked is
 * never decoded), held to the pixel limit by its declared size, then decoded and encoded
 * again by sharp in its own format. Encoding anew carries over pixels only: every
 * metadata block is gone, an embedded ICC profile is applied (the pixels are converted to
 * sRGB) rather than kept, and the EXIF orientation is applied to the pixels before it goes.
 * The metadata is read before the decoder runs: a block that lies about its size refuses
 * the image without sharp ever seeing it.
 */
import sharp from 'sharp';
import type { OutputInfo, Sharp } from 'sharp';
import { metadataTexts, type MetadataText } from './metadata-text.js';
import { MetadataInvalid } from './metadata-invalid.js';
import { walkImage, type ImageFormat } from './walk-image.js';

sharp.cache(false);

export type Preparation =
  | { outcome: 'prepared'; served: Uint8Array; stripped: string[]; metadata: MetadataText[]; width: number; height: number }
  | { outcome: 'unwalkable'; why: string }
  | { outcome: 'pixel_limit'; width: number; height: number }
  | { outcome: 'metadata_invalid'; detail: string };

const ENCODE: Record<ImageFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: 90 }),
  png: (image) => image.png(),
  webp: (image) => image.webp({ quality: 90 }),
};

/** sharp's refusal once its own timeout (`.timeout()`) killed the pipeline. */
const SHARP_TIMEOUT = /^timeout: \d+% complete/;

/**
 * `timeoutSeconds` (0: none) stops sharp's own threads: the pool's deadline terminates this
 * worker, but libvips computes on libuv's threadpool, which terminating a worker does not stop;
 * without it an overrun image kept burning a core until done, and the gate's exit waited for it.
 */
export async function prepareImage(bytes: Uint8Array, mediaType: string, maxPixels: number, timeoutSeconds = 0): Promise<Preparation> {
  const walk = walkImage(bytes, mediaType);
  if (!walk.walkable) return { outcome: 'unwalkable', why: walk.why };
  if (walk.width * walk.height > maxPixels || walk.width === 0 || walk.height === 0) {
    return walk.width === 0 || walk.height === 0
      ? { outcome: 'unwalkable', why: 'no_dimensions' }
      : { outcome: 'pixel_limit', width: walk.width, height: walk.height };
  }
  let read: ReturnType<typeof metadataTexts>;
  try {
    read = metadataTexts(walk.blocks);
  } catch (error) {
    if (error instanceof MetadataInvalid) return { outcome: 'metadata_invalid', detail: error.detail };
    throw error;
  }
  let served: Buffer;
  let info: OutputInfo;
  try {
    // The declared size passed the limit; sharp's own limit is the second fence.
    const image = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', animated: walk.format === 'webp' })
      .autoOrient()
      .timeout({ seconds: timeoutSeconds });
    ({ data: served, info } = await ENCODE[walk.format](image).toBuffer({ resolveWithObject: true }));
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    // The pool's deadline, which sharp's timeout never precedes, has passed or is about to:
    // it terminates this worker and refuses the upload image_deadline, so the refusal is one.
    if (timeoutSeconds > 0 && SHARP_TIMEOUT.test(message)) return new Promise<never>(() => {});
    if (/pixel limit/i.test(message)) return { outcome: 'pixel_limit', width: walk.width, height: walk.height };
    return { outcome: 'unwalkable', why: 'decode_failed' };
  }
  const { texts, innerKinds } = read;
  const stripped = [...new Set<string>([...walk.blocks.map((b) => b.kind), ...innerKinds])].sort();
  return { outcome: 'prepared', served, stripped, metadata: texts, width: info.width, height: info.height };
}
