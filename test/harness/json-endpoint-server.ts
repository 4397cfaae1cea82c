import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a JsonEndpointServer took: when, its bearer, and its JSON body. */
export interface EndpointRequest<Body> {
  at: number;
  authorization: string | undefined;
  body: Body;
}

/** What the server does with the `n`th request (1 first): answer it (status, headers, body text) or hold it unanswered. */
export type EndpointBehaviour<Body> = (req: EndpointRequest<Body>, n: number) => { status: number; headers?: Record<string, string>; body: string } | 'hold';

/**
 * A real HTTP server on 127.0.0.1 serving one JSON POST path whose answers a test decides (a
 * model server's endpoint, say): it keeps every request, answers as `behaviour` says, and
 * holds what it is told to hold until stop(). Any other method or path is a 404.
 */
export class JsonEndpointServer<Body> {
  readonly requests: Array<EndpointRequest<Body>> = [];
  private readonly held: ServerResponse[] = [];
  private server!: Server;
  /** http://127.0.0.1:PORT, once started. */
  origin = '';

  constructor(
    private readonly path: string,
    public behaviour: EndpointBehaviour<Body>,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== this.path) {
          res.writeHead(404).end();
          return;
        }
        const request: EndpointRequest<Body> = { at: Date.now(), authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
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
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
