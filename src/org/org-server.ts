import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CredentialError } from '../credentials/credential-error.js';
import { endAnswer } from '../http-rpc/answer-before-body.js';
import { refuseTooLarge } from '../http-rpc/http-replies.js';
import { jsonRpcObject } from '../http-rpc/json-rpc-body.js';
import { KeyRevoked, type OrgCaller, type OrgStaffCaller } from './org-bearer.js';
import type { OrgContext } from './org-context.js';
import { dispatchOrg } from './org-dispatch.js';
import { OrgApp } from './org-app.js';
import { getOutcomes } from './outcomes-door.js';
import { putSubmission, type DoorAnswer } from './submission-door.js';
import { putRetraction, RETRACTION_MAX_BYTES } from './retraction-door.js';
import { ORG_VERBS } from './org-registry.js';
import { logOrgRequest, type OrgRequestNote } from './org-request-log.js';
import type { OrgHealth } from './org-health.js';

/** docs/protocol.md#organization-doors: a submission body over 8 MiB is refused 413. */
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
  if (a.body === null) {
    res.writeHead(a.status, a.headers ?? {});
    endAnswer(res);
    return;
  }
  const body = JSON.stringify(a.body);
  res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(a.headers ?? {}) });
  endAnswer(res, body);
}

async function rpc(ctx: OrgContext, caller: OrgStaffCaller, body: Buffer, note: OrgRequestNote): Promise<DoorAnswer> {
  const parsed = jsonRpcObject(body);
  if ('refusal' in parsed) return { status: parsed.status, body: parsed.refusal as unknown as Record<string, unknown> };
  const method = parsed.message['method'];
  // Only a verb the org serves is written down: any other method is the caller's own text.
  if (typeof method === 'string' && ORG_VERBS.has(method)) note.verb = method;
  const answer = await dispatchOrg(ctx, caller, parsed.message);
  const code = (answer as { error?: { code?: unknown } } | null)?.error?.code;
  if (typeof code === 'number') note.code = code;
  // A notification is answered with no content, as the gate's /rpc answers one.
  return answer === null ? { status: 204, body: null } : { status: 200, body: answer as unknown as Record<string, unknown> };
}

/** Who is calling: 401 with the {error, kind} of docs/protocol.md#credential-errors (and WWW-Authenticate), 403 for a revoked key. */
async function callerOf(ctx: OrgContext, req: IncomingMessage, note: OrgRequestNote): Promise<OrgCaller | DoorAnswer> {
  try {
    const caller = await ctx.bearer.callerOf(req.headers.authorization);
    note.identity = caller.kind === 'member' ? `member:${caller.deployment_id}` : caller.identity;
    return caller;
  } catch (error) {
    if (error instanceof CredentialError) {
      note.kind = error.kind;
      return { status: 401, body: error.body(), headers: { 'www-authenticate': error.kind === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"' } };
    }
    if (error instanceof KeyRevoked) return { status: 403, body: { error: error.message } };
    throw error;
  }
}

/** The doors a member's submit key opens, by their path's template: PUT a submission, PUT a retraction of one. */
const MEMBER_PUTS = [
  { pattern: /^\/submissions\/([^/]+)$/, route: '/submissions/{artifact_id}', max: SUBMISSION_MAX_BYTES },
  { pattern: /^\/retractions\/([^/]+)$/, route: '/retractions/{artifact_id}', max: RETRACTION_MAX_BYTES },
] as const;

/** The template a path is logged as: a door's, never the path asked (a console asset's name aside). */
function routeOf(pathname: string): string {
  const put = MEMBER_PUTS.find((d) => d.pattern.test(pathname));
  if (put !== undefined) return put.route;
  if (['/rpc', '/outcomes', '/health', '/livez', '/readyz', '/identity', '/app'].includes(pathname)) return pathname;
  return pathname.startsWith('/app/assets/') ? '/app/assets/{asset}' : 'unknown';
}

async function route(ctx: OrgContext, app: OrgApp, health: OrgHealth | null, req: IncomingMessage, res: ServerResponse, note: OrgRequestNote): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://org');
  // Probes with no credential, as the gate's (docs/operations.md, "Monitoring").
  if (health !== null && req.method === 'GET' && url.pathname === '/livez') return health.livez(res);
  if (health !== null && req.method === 'GET' && url.pathname === '/readyz') return health.readyz(res);
  // The console's shell, its bundle and /identity are public, as the gate's are.
  if (req.method === 'GET' && (await app.serve(url.pathname, res))) return;
  const put = MEMBER_PUTS.find((d) => d.pattern.test(url.pathname));
  const door = put !== undefined ? 'put' : url.pathname === '/outcomes' ? 'outcomes' : url.pathname === '/rpc' ? 'rpc' : null;
  if (url.pathname === '/health' && req.method === 'GET') return send(res, { status: 200, body: { ok: true, deployment_id: ctx.key.deploymentId, trusted_issuers: ctx.trustedIssuers } });
  if (door === null) return send(res, { status: 404, body: { error: 'no such door' } });
  const method = door === 'put' ? 'PUT' : door === 'outcomes' ? 'GET' : 'POST';
  if (req.method !== method) return send(res, { status: 405, body: { error: `${url.pathname} answers ${method}` }, headers: { allow: method } });
  const caller = await callerOf(ctx, req, note);
  if ('status' in caller) return send(res, caller);
  if (door === 'rpc') {
    if (caller.kind === 'member') return send(res, { status: 403, body: { error: "a member's submit key opens only /submissions, /retractions and /outcomes" } });
    return send(res, await rpc(ctx, caller, await readBody(req, RPC_MAX_BYTES), note));
  }
  if (caller.kind !== 'member') return send(res, { status: 403, body: { error: "this door needs a member gate's submit key" } });
  if (door === 'outcomes') return send(res, await getOutcomes(ctx, caller.deployment_id, url.searchParams));
  const bytes = await readBody(req, put!.max);
  let pathId: string;
  try {
    pathId = decodeURIComponent(put!.pattern.exec(url.pathname)![1]!);
  } catch {
    return send(res, { status: 400, body: { error: 'the artifact id in the path is not readable' } });
  }
  if (/^sha256:[0-9a-f]{64}$/.test(pathId)) note.artifact_id = pathId;
  if (put!.route === '/retractions/{artifact_id}') return send(res, await putRetraction(ctx, caller.deployment_id, pathId, bytes));
  const answer = await putSubmission(ctx, caller.deployment_id, pathId, bytes);
  health?.submitted(answer.status, answer.body);
  return send(res, answer);
}

export interface OrgServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The org gate's HTTP doors on one port; every request reads and writes only the database. */
export async function listenOrg(ctx: OrgContext, port: number, host = '127.0.0.1', health: OrgHealth | null = null): Promise<OrgServer> {
  const app = new OrgApp(ctx);
  const server = createServer((req, res) => {
    const started = performance.now();
    const note: OrgRequestNote = {};
    res.once('close', () => logOrgRequest(ctx.log, req, res, routeOf(new URL(req.url ?? '/', 'http://org').pathname), note, started));
    route(ctx, app, health, req, res, note).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      // Answer, then drop the connection: the rest of the body is never read.
      if (error instanceof TooLarge) return refuseTooLarge(res, { error: `the body is larger than this door takes (a submission: at most ${SUBMISSION_MAX_BYTES} bytes, a retraction ${RETRACTION_MAX_BYTES})` });
      ctx.log.error('a request failed', error, { route: routeOf(new URL(req.url ?? '/', 'http://org').pathname), method: req.method });
      send(res, { status: 503, body: { error: 'the organization gate could not answer; try again' }, headers: { 'retry-after': '5' } });
    });
  });
  // Longer than the idle timeout of the load balancers an org runs behind (60 s is common):
  // the balancer, not this process, ends an idle connection, so it never sends a request
  // down a connection this process is closing at that moment.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      health?.stop();
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.copies.close();
    },
  };
}
