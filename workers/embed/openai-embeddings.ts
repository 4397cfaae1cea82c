/**
 * The optional [embed] backend: POST {url}/embeddings of an OpenAI-compatible server
 * (workers/http/model-http.ts: deadlines, 429/503 retries honouring Retry-After). The
 * answer is model output, so it is parsed here in the worker and checked with zod: an
 * answer of the wrong shape, count or length is an error, and the rows stay without a
 * vector (never a made-up one).
 */
import { z } from 'zod';
import type { EmbedBackend } from './backend.js';
import { normalised } from './hashed-ngrams.js';
import { HttpCallError, callModelServer } from '../http/model-http.js';

type OpenAiBackend = Extract<EmbedBackend, { kind: 'openai' }>;

/** Inputs longer than this are cut: embedding models refuse past their context (8,192 tokens for the common ones). */
export const OPENAI_MAX_CHARS = 8192;

export class EmbedAnswerInvalid extends Error {
  constructor(message: string) {
    super(`embeddings answer refused: ${message}`);
    this.name = 'EmbedAnswerInvalid';
  }
}

const answerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number().finite()) })),
});

export async function openaiEmbeddings(b: OpenAiBackend, texts: readonly string[]): Promise<Float32Array[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (b.apiKeyEnv !== '') {
    const key = process.env[b.apiKeyEnv];
    if (!key) throw new Error(`embed.api_key_env names ${b.apiKeyEnv}, which is not set in the gate's environment`);
    headers['authorization'] = `Bearer ${key}`;
  }
  const body = JSON.stringify({
    model: b.model,
    input: texts.map((t) => t.slice(0, OPENAI_MAX_CHARS)),
    dimensions: b.dimensions,
    encoding_format: 'float',
  });
  // A float in JSON takes at most ~25 bytes; anything much larger is not an embeddings answer.
  const limit = 65536 + texts.length * b.dimensions * 32;
  const answer = await callModelServer(b, `${b.url.replace(/\/+$/, '')}/embeddings`, { method: 'POST', headers, body, maxBytes: limit }).catch(
    (error: unknown) => {
      if (error instanceof HttpCallError && error.kind === 'too_large') {
        throw new EmbedAnswerInvalid(`larger than ${limit} bytes`);
      }
      throw error;
    },
  );
  if (answer.status !== 200) throw new Error(`embeddings server answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
  return parseAnswer(answer.text, texts.length, b.dimensions);
}

/** The vectors of an answer in input order, each of unit length; anything else throws EmbedAnswerInvalid. */
export function parseAnswer(text: string, count: number, dimensions: number): Float32Array[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EmbedAnswerInvalid('not JSON');
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) throw new EmbedAnswerInvalid(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const data = parsed.data.data;
  if (data.length !== count) throw new EmbedAnswerInvalid(`${data.length} embeddings for ${count} inputs`);
  const out = new Array<Float32Array | undefined>(count);
  for (const item of data) {
    if (item.index >= count || out[item.index] !== undefined) throw new EmbedAnswerInvalid(`index ${item.index} repeated or out of range`);
    if (item.embedding.length !== dimensions) {
      throw new EmbedAnswerInvalid(`an embedding of ${item.embedding.length} dimensions, ${dimensions} configured`);
    }
    const v = normalised(Float32Array.from(item.embedding));
    if (v.every((x) => x === 0)) throw new EmbedAnswerInvalid(`embedding ${item.index} is all zeros`);
    out[item.index] = v;
  }
  return out as Float32Array[];
}
