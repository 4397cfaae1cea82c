/**
 * Piscina worker entry for the embed pool: a batch of UTF-8 texts in (one transferred
 * buffer), one buffer out (transferred back): count x dims unit-length floats, or for rows
 * to store their int8 vectors and sign codes (quantizedLayout). Pure but for the optional
 * openai backend's HTTP request; it never touches SQLite.
 */
import { move } from 'piscina';
import { ternaryCode, toInt8 } from './quantize.js';
import { unpackTexts } from '../packed-texts.js';
import { backendDims, quantizedLayout, type EmbedTask } from './backend.js';
import { hashedNgrams } from './hashed-ngrams.js';
import { openaiEmbeddings } from './openai-embeddings.js';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export default async function embedBatch(task: EmbedTask): Promise<ArrayBuffer> {
  const texts = unpackTexts(task.texts).map((bytes) => decoder.decode(bytes));
  const backend = task.backend;
  const vectors =
    backend.kind === 'local'
      ? texts.map((t) => hashedNgrams(t, backend.scheme))
      : await openaiEmbeddings(backend, texts);
  const dims = backendDims(backend);
  if (task.quantized === true) {
    const layout = quantizedLayout(texts.length, dims);
    const out = new Uint8Array(layout.total);
    const codesAt = texts.length * dims;
    vectors.forEach((v, i) => {
      const vector = toInt8(v);
      out.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength), i * dims);
      out.set(ternaryCode(vector, dims), codesAt + i * layout.codeBytes);
    });
    return move(out.buffer) as ArrayBuffer;
  }
  const out = new Float32Array(texts.length * dims);
  vectors.forEach((v, i) => out.set(v, i * dims));
  return move(out.buffer) as ArrayBuffer;
}
