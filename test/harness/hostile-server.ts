import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A loopback HTTP server that answers every request with `behave`, counting what it got. */
export class HostileHttp {
  url = '';
  hits: string[] = [];
  private server!: Server;
  private sockets = new Set<Socket>();

  static async start(behave: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<HostileHttp> {
    const h = new HostileHttp();
    h.server = createServer(async (req, res) => {
      let body = '';
      for await (const c of req) body += c;
      h.hits.push(`${req.method} ${req.url}`);
      behave(req, res, body);
    });
    h.server.on('connection', (s) => {
      h.sockets.add(s);
      s.on('close', () => h.sockets.delete(s));
    });
    await new Promise<void>((r) => h.server.listen(0, '127.0.0.1', r));
    h.url = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
    return h;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** A unix socket server that answers each connection with `behave`. */
export class HostileSocket {
  path = '';
  private server!: NetServer;
  private sockets = new Set<Socket>();

  static async start(behave: (socket: Socket, line: string) => void): Promise<HostileSocket> {
    const h = new HostileSocket();
    h.path = join(mkdtempSync(join(tmpdir(), 'gate-hostile-')), 'x.sock');
    h.server = createNetServer((socket) => {
      h.sockets.add(socket);
      socket.on('close', () => h.sockets.delete(socket));
      let buffered = '';
      socket.on('data', (c) => {
        buffered += c;
        const nl = buffered.indexOf('\n');
        if (nl >= 0) behave(socket, buffered.slice(0, nl));
      });
    });
    await new Promise<void>((r) => h.server.listen(h.path, r));
    return h;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** The id of a JSON-RPC request line or body, so a hostile server can echo it when it means to. */
export const idOf = (text: string): unknown => (JSON.parse(text) as { id: unknown }).id;
