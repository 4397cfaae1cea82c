import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Gate } from '../gate.js';
import { BearerAuth, CredentialError } from '../auth/bearer.js';
import { dispatch, framingError } from '../verbs/dispatch.js';
import { ErrorCode } from '../gate-error.js';
import type { InFlight } from './in-flight.js';
import { identityDocument } from './identity-document.js';

export interface HttpSurfaceOptions {
  maxRequestBytes: number;
  maxInFlight: number;
  inFlight: InFlight;
  isDraining: () => boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

interface Route {
  method: string;
  path: string;
  guard: 'none' | 'bearer';
  handler: Handler;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Reads a body of at most `limit` bytes; resolves null when it grows past the limit. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Refuses an oversized request from its Content-Length before reading the body (spec 1: a client may see a reset). */
function refuseTooLarge(res: ServerResponse): void {
  sendJson(res, 413, framingError(ErrorCode.tooLarge, 'request larger than the limit'), { connection: 'close' });
  res.on('finish', () => res.socket?.destroy());
}

/**
 * The HTTP surface: a route table as data. Its only jobs are framing, size limits,
 * deriving the caller from the credential and mapping errors to HTTP; verbs are reached
 * through the one dispatcher, exactly as from the socket.
 */
export function createHttpSurface(gate: Gate, options: HttpSurfaceOptions): Server {
  const auth = new BearerAuth(gate.db, gate.clock);

  const rpc: Handler = async (req, res) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > options.maxRequestBytes) return refuseTooLarge(res);
    let caller;
    try {
      caller = auth.callerOf(req.headers.authorization, 'http');
    } catch (error) {
      if (error instanceof CredentialError) return sendJson(res, 401, error.body(), { 'www-authenticate': 'Bearer' });
      throw error;
    }
    const body = await readBody(req, options.maxRequestBytes);
    if (body === null) return refuseTooLarge(res);
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(res, 400, framingError(ErrorCode.parse, 'the body is not JSON'));
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return sendJson(res, 400, framingError(ErrorCode.invalidRequest, 'a request is one JSON-RPC 2.0 object'));
    }
    const response = await dispatch(gate, caller, message);
    if (response === null) {
      res.writeHead(204);
      res.end();
      return;
    }
    sendJson(res, 200, response);
  };

  const routes: Route[] = [
    {
      method: 'GET',
      path: '/',
      guard: 'none',
      handler: (_req, res) => {
        res.writeHead(302, { location: '/app', 'content-length': 0 });
        res.end();
      },
    },
    { method: 'GET', path: '/identity', guard: 'none', handler: (_req, res) => sendJson(res, 200, identityDocument(gate)) },
    { method: 'POST', path: '/rpc', guard: 'bearer', handler: rpc },
  ];

  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const sameRoute = routes.filter((r) => r.path === path);
    const route = sameRoute.find((r) => r.method === req.method);
    if (!route) {
      if (sameRoute.length > 0) {
        return sendJson(res, 405, { error: `method ${req.method} not allowed on ${path}` }, {
          allow: sameRoute.map((r) => r.method).join(', '),
        });
      }
      return sendJson(res, 404, { error: `no route ${req.method} ${path}` });
    }
    if (options.isDraining()) return sendJson(res, 503, { error: 'the gate is shutting down' }, { 'retry-after': '1', connection: 'close' });
    if (options.inFlight.size >= options.maxInFlight) {
      return sendJson(res, 503, { error: 'busy: too many requests in flight' }, { 'retry-after': '1' });
    }
    options.inFlight.enter();
    res.on('close', () => options.inFlight.leave());
    Promise.resolve(route.handler(req, res)).catch((error: unknown) => {
      gate.log.error(`${req.method} ${path} failed`, error);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  return server;
}
