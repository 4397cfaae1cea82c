import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../gate-error.js';
import type { Log } from '../log.js';

/** What only the route learns about a request, noted for its line. */
export interface OrgRequestNote {
  /** `key:<key_id>`, `iss|sub`, or `member:<deployment id>` for a member's submit key. */
  identity?: string;
  /** A verb the org serves (never the caller's own method text). */
  verb?: string;
  /** A JSON-RPC refusal's code. */
  code?: number;
  /** The member's row a door acted on. */
  artifact_id?: string;
  /** A 401's kind (missing, malformed, issuer, audience, expired, signature, unavailable, unsupported). */
  kind?: string;
}

/**
 * The organization's request line, one a request, when its response closes. Where the gate
 * leaves a served request to debug (an ingest-heavy gate answers thousands a second), the
 * organization's traffic is promotions and decisions, a few a second for a thousand members,
 * so every request is a line at info: a failure (5xx, a connection cut, -32603) at warn.
 * `route` is the door's template, never the URL asked; no body, key, token or email is in it.
 */
export function logOrgRequest(log: Log, req: IncomingMessage, res: ServerResponse, route: string, note: OrgRequestNote, started: number): void {
  const status = res.writableFinished ? res.statusCode : 0;
  const level = status >= 500 || status === 0 || note.code === ErrorCode.internal ? 'warn' : 'info';
  if (!log.enabled(level)) return;
  log[level]('request', {
    door: route === '/rpc' ? 'rpc' : route.startsWith('/app') || route === '/identity' ? 'app' : 'http',
    method: req.method,
    route,
    status,
    ms: Math.round((performance.now() - started) * 100) / 100,
    identity: note.identity,
    verb: note.verb,
    code: note.code,
    artifact_id: note.artifact_id,
    kind: note.kind,
  });
}
