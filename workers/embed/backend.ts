import { codeWords } from './quantize.js';
import type { PackedTexts } from '../packed-texts.js';
import { schemeLabel, type HashedNgramsScheme } from './hashed-ngrams.js';

/** Which embedding a pool task runs; plain data, so it crosses to a worker thread as it is. */
export type EmbedBackend =
  | { kind: 'local'; scheme: HashedNgramsScheme }
  | {
      kind: 'openai';
      url: string;
      model: string;
      /** The NAME of the environment variable holding the key; the worker reads it, so the key never travels in a task. */
      apiKeyEnv: string;
      dimensions: number;
      timeoutMs: number;
      connectTimeoutMs: number;
      maxRetries: number;
    };

/** The label stored vectors are tagged with: two vectors are comparable only under the same label. */
export function backendLabel(b: EmbedBackend): string {
  return b.kind === 'local' ? schemeLabel(b.scheme) : `openai-compatible ${b.model} d${b.dimensions}`;
}

export const backendDims = (b: EmbedBackend) => (b.kind === 'local' ? b.scheme.dims : b.dimensions);

export interface EmbedTask {
  backend: EmbedBackend;
  /** UTF-8 texts in one buffer, transferred, not copied. */
  texts: PackedTexts;
  /**
   * Rows to store: answer each vector as stored (int8) with its sign code, not as floats, so
   * the quantizing runs in the pool rather than on the main thread (quantizedLayout).
   */
  quantized?: boolean;
}

/** Where a quantized answer of `count` vectors keeps them: every int8 vector, then every code. */
export function quantizedLayout(count: number, dims: number): { vectorBytes: number; codeBytes: number; total: number } {
  const codeBytes = 2 * codeWords(dims) * 8;
  return { vectorBytes: dims, codeBytes, total: count * (dims + codeBytes) };
}
