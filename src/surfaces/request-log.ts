import { VERBS_BY_NAME } from '../verbs/registry.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../gate-error.js';
import type { Log } from '../log.js';
import { RECALL_MODES } from '../recall/ranked-search.js';
import type { RequestObserver } from '../metrics/request-observer.js';

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
  /** gv.recall's mode, for its latency by mode (/metrics); not logged. */
  recall_mode?: string;
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

/**
 * The HTTP line, when the response closes. `route` is the matched template, never the raw
 * URL (its query may carry a code or state). The metrics, when the gate keeps them, count
 * the same request from the same facts.
 */
export function logHttpRequest(log: Log, req: IncomingMessage, res: ServerResponse, route: string | null, started: number, observer?: RequestObserver): void {
  const note = (req as Noted)[NOTE];
  // A response cut before it was wholly written (a reset, a body deadline) is a failure whatever its status line said.
  const status = res.writableFinished ? res.statusCode : 0;
  observer?.request({
    door: doorOf(route),
    // A route that serves no verb is named by its template (bounded, never the raw URL).
    verb: note?.verb ?? note?.tool ?? route ?? '',
    status,
    code: note?.code,
    seconds: (performance.now() - started) / 1000,
    recallMode: note?.recall_mode,
  });
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

/**
 * gv.recall's mode as the message names it (hybrid when it names none), for the recall
 * latency by mode; undefined for any other message, or a mode the verb refuses.
 */
export function recallModeOf(message: Record<string, unknown>): string | undefined {
  if (message['method'] !== 'gv.recall') return undefined;
  const params = message['params'];
  const mode = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)['mode'] : undefined;
  if (mode === undefined) return 'hybrid';
  return typeof mode === 'string' && (RECALL_MODES as readonly string[]).includes(mode) ? mode : undefined;
}

/** The socket's line, per message answered (and its count and time in the metrics). */
export function logSocketRequest(
  log: Log,
  identity: string,
  verb: string | undefined,
  code: number | undefined,
  started: number,
  observer?: RequestObserver,
  recallMode?: string,
): void {
  observer?.request({ door: 'socket', verb, status: 200, code, seconds: (performance.now() - started) / 1000, recallMode });
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
