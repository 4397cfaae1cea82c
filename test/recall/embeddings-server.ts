import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SCHEME, hashedNgrams } from '../../dist/workers/embed/hashed-ngrams.js';

export interface EmbeddingsRequest {
  at: number;
  authorization: string | undefined;
  body: { model: string; input: string[]; dimensions: number; encoding_format: string };
}

/** What the server does with a request: answer it (status, headers, body text) or hold it unanswered. */
export type Behaviour = (req: EmbeddingsRequest, n: number) => { status: number; headers?: Record<string, string>; body: string } | 'hold';

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
export class EmbeddingsServer {
  readonly requests: EmbeddingsRequest[] = [];
  private readonly held: ServerResponse[] = [];
  private server!: Server;
  url = '';

  constructor(public behaviour: Behaviour) {}

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
          res.writeHead(404).end();
          return;
        }
        const request: EmbeddingsRequest = {
          at: Date.now(),
          authorization: req.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        };
        this.requests.push(request);
        const answer = this.behaviour(request, this.requests.length);
        if (answer === 'hold') {
          this.held.push(res);
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
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
