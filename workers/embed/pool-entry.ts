/**
 * Piscina worker entry for the embed pool: a batch of UTF-8 texts in (transferred), one
 * Float32Array of count x dims unit-length vectors out (transferred back). Pure but for
 * the optional openai backend's HTTP request; it never touches SQLite.
 */
import { move } from 'piscina';
import { backendDims, type EmbedTask } from './backend.js';
import { hashedNgrams } from './hashed-ngrams.js';
import { openaiEmbeddings } from './openai-embeddings.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export default async function embedBatch(task: EmbedTask): Promise<ArrayBuffer> {
  const texts = task.texts.map((buffer) => decoder.decode(buffer));
  const backend = task.backend;
  const vectors =
    backend.kind === 'local'
      ? texts.map((t) => hashedNgrams(t, backend.scheme))
      : await openaiEmbeddings(backend, texts);
  const dims = backendDims(backend);
  const out = new Float32Array(texts.length * dims);
  vectors.forEach((v, i) => out.set(v, i * dims));
  return move(out.buffer) as ArrayBuffer;
}
