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
  /** UTF-8 texts, each in a buffer of its own so it is transferred, not copied. */
  texts: ArrayBuffer[];
}
