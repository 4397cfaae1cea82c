import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { jsonRpcObject } from '../surfaces/json-rpc-body.js';
import type { OrgContext } from './org-context.js';
import { authenticate, type OrgCaller } from './org-members.js';
import { getOutcomes } from './outcomes-door.js';
import { inboxParams, orgInbox, orgReview, OrgVerbError, reviewParams } from './review-verbs.js';
import { putSubmission, type DoorAnswer } from './submission-door.js';

/** FACTS "Org doors": a submission body over 8 MiB is refused 413. */
export const SUBMISSION_MAX_BYTES = 8 * 1024 * 1024;
const RPC_MAX_BYTES = 1024 * 1024;

class TooLarge extends Error {}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > max) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, a: DoorAnswer): void {
  const body = JSON.stringify(a.body);
  res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(a.headers ?? {}) });
  res.end(body);
}

/** The verbs of the org's /rpc: each with the key scopes that may call it. */
const VERBS: Record<string, { scopes: OrgCaller['scope'][]; params: z.ZodType; run: (ctx: OrgContext, caller: OrgCaller, p: any) => Promise<unknown> }> = {
  'gv.org_inbox': { scopes: ['review', 'admin'], params: inboxParams, run: orgInbox },
  'gv.org_review': { scopes: ['review', 'admin'], params: reviewParams, run: orgReview },
};

async function rpc(ctx: OrgContext, caller: OrgCaller, body: Buffer): Promise<DoorAnswer> {
  const parsed = jsonRpcObject(body);
  if ('refusal' in parsed) return { status: parsed.status, body: parsed.refusal as unknown as Record<string, unknown> };
  const { message } = parsed;
  const id = (message['id'] ?? null) as string | number | null;
  const fail = (code: number, text: string, data?: Record<string, unknown>): DoorAnswer => ({
    status: 200,
    body: { jsonrpc: '2.0', id, error: { code, message: text, ...(data ? { data } : {}) } },
  });
  if (message['jsonrpc'] !== '2.0' || typeof message['method'] !== 'string') return { ...fail(-32600, 'not a JSON-RPC 2.0 request'), status: 400 };
  const verb = VERBS[message['method']];
  if (!verb) return fail(-32601, `unknown method: ${message['method']}`);
  if (!verb.scopes.includes(caller.scope)) return fail(-32602, `${message['method']} needs a ${verb.scopes.join(' or ')} key; this key's scope is ${caller.scope}`);
  const params = verb.params.safeParse(message['params'] ?? {});
  if (!params.success) return fail(-32602, `${message['method']}: ${params.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ')}`);
  try {
    return { status: 200, body: { jsonrpc: '2.0', id, result: await verb.run(ctx, caller, params.data) } };
  } catch (error) {
    if (error instanceof OrgVerbError) return fail(error.code, error.message, error.data);
    throw error;
  }
}

async function route(ctx: OrgContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://org');
  const submission = /^\/submissions\/([^/]+)$/.exec(url.pathname);
  const door = submission ? 'submit' : url.pathname === '/outcomes' ? 'outcomes' : url.pathname === '/rpc' ? 'rpc' : null;
  if (url.pathname === '/health' && req.method === 'GET') return send(res, { status: 200, body: { ok: true, deployment_id: ctx.key.deploymentId } });
  if (door === null) return send(res, { status: 404, body: { error: 'no such door' } });
  const method = door === 'submit' ? 'PUT' : door === 'outcomes' ? 'GET' : 'POST';
  if (req.method !== method) return send(res, { status: 405, body: { error: `${url.pathname} answers ${method}` }, headers: { allow: method } });
  const caller = await authenticate(ctx.pool, req.headers.authorization);
  if ('status' in caller) return send(res, { status: caller.status, body: { error: caller.error } });
  if (door === 'rpc') {
    if (caller.scope === 'submit') return send(res, { status: 403, body: { error: "a member's submit key opens only /submissions and /outcomes" } });
    return send(res, await rpc(ctx, caller, await readBody(req, RPC_MAX_BYTES)));
  }
  if (caller.scope !== 'submit' || caller.deployment_id === null) {
    return send(res, { status: 403, body: { error: 'this door needs a member gate\'s submit key' } });
  }
  if (door === 'outcomes') return send(res, await getOutcomes(ctx, caller.deployment_id, url.searchParams));
  const bytes = await readBody(req, SUBMISSION_MAX_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return send(res, { status: 400, body: { error: 'the body is not JSON' } });
  }
  let pathId: string;
  try {
    pathId = decodeURIComponent(submission![1]!);
  } catch {
    return send(res, { status: 400, body: { error: 'the artifact id in the path is not readable' } });
  }
  return send(res, await putSubmission(ctx, caller.deployment_id, pathId, body));
}

export interface OrgServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The org gate's HTTP doors on one port; every request reads and writes only the database. */
export async function listenOrg(ctx: OrgContext, port: number, host = '127.0.0.1'): Promise<OrgServer> {
  const server = createServer((req, res) => {
    route(ctx, req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (error instanceof TooLarge) {
        // Answer, then drop the connection: the rest of the body is never read.
        res.setHeader('connection', 'close');
        send(res, { status: 413, body: { error: `the body is larger than this door takes (a submission: at most ${SUBMISSION_MAX_BYTES} bytes)` } });
        return;
      }
      process.stderr.write(`gate org: ${req.method} ${req.url}: ${error instanceof Error ? error.stack : String(error)}\n`);
      send(res, { status: 503, body: { error: 'the organization gate could not answer; try again' }, headers: { 'retry-after': '5' } });
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
