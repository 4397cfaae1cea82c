import { DEFAULT_SCHEME, hashedNgrams } from '../../dist/workers/embed/hashed-ngrams.js';
import { JsonEndpointServer, type EndpointBehaviour, type EndpointRequest } from '../harness/json-endpoint-server.js';

export type EmbeddingsRequest = EndpointRequest<{ model: string; input: string[]; dimensions: number; encoding_format: string }>;

/** What the server does with a request: answer it (status, headers, body text) or hold it unanswered. */
export type Behaviour = EndpointBehaviour<EmbeddingsRequest['body']>;

/** A correct OpenAI-style answer, with vectors from the local hashing at `dims` (so similar texts stay similar). */
export function goodAnswer(req: EmbeddingsRequest, dims: number): string {
  return JSON.stringify({
    object: 'list',
    model: req.body.model,
    data: req.body.input.map((text, index) => ({ object: 'embedding', index, embedding: Array.from(hashedNgrams(text, { ...DEFAULT_SCHEME, dims })) })),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  });
}

/** A real OpenAI-compatible embeddings endpoint on 127.0.0.1 whose answers a test decides. */
export class EmbeddingsServer extends JsonEndpointServer<EmbeddingsRequest['body']> {
  constructor(behaviour: Behaviour) {
    super('/v1/embeddings', behaviour);
  }

  /** The base URL `embed.url` takes. */
  get url(): string {
    return `${this.origin}/v1`;
  }
}

export const openaiFlags = (url: string, dims: number) => ({
  'embed.backend': 'openai',
  'embed.url': url,
  'embed.model': 'test-model',
  'embed.dimensions': dims,
  'embed.api_key_env': 'GATE_TEST_EMBED_KEY',
  'embed.timeout_ms': 10_000,
});
