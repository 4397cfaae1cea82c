import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/**
 * A loopback organization gate under test: PUT /submissions/{id} answers from a script per
 * artifact (then 202), GET /outcomes pages a fixed list of outcome events by integer cursor.
 */
export class OrgDoorServer {
  readonly received: Received[] = [];
  readonly script = new Map<string, ScriptedAnswer[]>();
  outcomes: Record<string, unknown>[] = [];
  /** The deployment id the door names on each page. */
  deploymentId = 'org-test';
  url = '';
  private server!: Server;

  static async start(): Promise<OrgDoorServer> {
    const door = new OrgDoorServer();
    door.server = createServer((req, res) => void door.answer(req, res));
    await new Promise<void>((resolve) => door.server.listen(0, '127.0.0.1', resolve));
    door.url = `http://127.0.0.1:${(door.server.address() as AddressInfo).port}`;
    return door;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', this.url);
    this.received.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body: text ? JSON.parse(text) : undefined });
    const send = (a: ScriptedAnswer) => {
      const body = a.body === undefined ? '' : JSON.stringify(a.body);
      res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
      res.end(body);
    };
    const put = /^\/submissions\/(.+)$/.exec(url.pathname);
    if (req.method === 'PUT' && put) {
      const id = decodeURIComponent(put[1]!);
      const next = this.script.get(id)?.shift();
      return send(next ?? { status: 202, body: { artifact_id: id, state: 'leased', attempts: 1, deployment_id: 'org-test' } });
    }
    if (req.method === 'GET' && url.pathname === '/outcomes') {
      const since = Number(url.searchParams.get('since') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 500);
      const events = this.outcomes.slice(since, since + limit);
      return send({ status: 200, body: { events, next: since + events.length, deployment_id: this.deploymentId } });
    }
    send({ status: 404, body: { error: 'no such door' } });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
