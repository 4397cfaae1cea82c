import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RerankRequest {
  authorization: string | undefined;
  body: { query: string; texts: string[]; truncate?: boolean };
}

/** What the server does with a request: answer it (status and body text) or hold it unanswered. */
export type RerankBehaviour = (req: RerankRequest) => { status: number; body: string } | 'hold';

/** A real text-embeddings-inference style `/rerank` endpoint on 127.0.0.1 whose answers a test decides. */
export class RerankServer {
  readonly requests: RerankRequest[] = [];
  private readonly held: ServerResponse[] = [];
  private server!: Server;
  url = '';

  constructor(public behaviour: RerankBehaviour) {}

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/rerank') {
          res.writeHead(404).end();
          return;
        }
        const request: RerankRequest = { authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
        this.requests.push(request);
        const answer = this.behaviour(request);
        if (answer === 'hold') {
          this.held.push(res);
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** TEI's answer: every text's score, best first; `scoreOf` scores a text. */
export function teiAnswer(req: RerankRequest, scoreOf: (text: string) => number): string {
  const scored = req.body.texts.map((text, index) => ({ index, score: scoreOf(text) }));
  return JSON.stringify(scored.sort((a, b) => b.score - a.score));
}
