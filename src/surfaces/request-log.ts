import { VERBS_BY_NAME } from '../verbs/registry.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../gate-error.js';
import type { Log } from '../log.js';

/**
 * One log line per request, on every door. The HTTP server writes the line when the
 * response closes (it alone knows the status and the time); what only a route learns
 * (the caller's identity, the verb, the tool, a JSON-RPC refusal's code) it notes here
 * first. The socket writes its own line per message. The dispatcher writes none, so no
 * request is logged twice (an /mcp tool reaches its verb through `call`, not `dispatch`).
 *
 * Levels: served at debug, refused (HTTP 4xx, a JSON-RPC error, a tool error) at info,
 * failed (5xx, -32603, a connection cut before the answer) at warn. At info an
 * ingest-heavy gate thus writes nothing per healthy request.
 */
export interface RequestNote {
  identity?: string;
  verb?: string;
  tool?: string;
  /** An MCP protocol method other than tools/call (tools/list, server/discover). */
  mcp_method?: string;
  code?: number;
}

/** Kept on the request itself: measured, a WeakMap entry per request cost several times as much. */
const NOTE = Symbol('gate request note');
type Noted = IncomingMessage & { [NOTE]?: RequestNote };

export function noteRequest(req: IncomingMessage, facts: RequestNote): void {
  const note = (req as Noted)[NOTE];
  if (note === undefined) (req as Noted)[NOTE] = facts;
  else Object.assign(note, facts);
}

export function requestLevel(status: number, code: number | undefined): 'warn' | 'info' | 'debug' {
  if (status >= 500 || status === 0 || code === ErrorCode.internal) return 'warn';
  if (status >= 400 || code !== undefined) return 'info';
  return 'debug';
}

const ms = (started: number) => Math.round((performance.now() - started) * 100) / 100;

/** The HTTP line, when the response closes. `route` is the matched template, never the raw URL (its query may carry a code or state). */
export function logHttpRequest(log: Log, req: IncomingMessage, res: ServerResponse, route: string | null, started: number): void {
  const note = (req as Noted)[NOTE];
  // A response cut before it was wholly written (a reset, a body deadline) is a failure whatever its status line said.
  const status = res.writableFinished ? res.statusCode : 0;
  const level = requestLevel(status, note?.code);
  if (!log.enabled(level)) return;
  log[level]('request', {
    door: doorOf(route),
    method: req.method,
    route,
    status,
    ms: ms(started),
    identity: note?.identity,
    verb: note?.verb,
    tool: note?.tool,
    mcp_method: note?.mcp_method,
    code: note?.code,
  });
}

/** The verb a message names, for its log line, when this gate serves it: any other method string is the caller's own text. */
export function servedVerb(message: Record<string, unknown>): string | undefined {
  const method = message['method'];
  return typeof method === 'string' && VERBS_BY_NAME.has(method) ? method : undefined;
}

/** The socket's line, per message answered. */
export function logSocketRequest(log: Log, identity: string, verb: string | undefined, code: number | undefined, started: number): void {
  const level = requestLevel(200, code);
  if (!log.enabled(level)) return;
  log[level]('request', { door: 'socket', identity, verb, code, ms: ms(started) });
}

function doorOf(route: string | null): string {
  if (route === '/rpc') return 'rpc';
  if (route === null) return 'http';
  if (route.startsWith('/mcp')) return 'mcp';
  if (route.startsWith('/oauth') || route.startsWith('/.well-known')) return 'oauth';
  return 'http';
}
