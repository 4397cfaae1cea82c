/**
 * The error kinds a client reports (docs/protocol.md#client-transport-rules, rule 4), plus the client's own:
 * `timeout` (the deadline passed), `transport` (no connection), `invalid_response` (not
 * JSON, duplicate keys, too large, a redirect, a different id) and `config`.
 */
export type ClientErrorKind =
  | 'identity'
  | 'request_too_large'
  | 'invalid_params'
  | 'unsupported_operation'
  | 'busy'
  | 'banned'
  | 'refused'
  | 'auth'
  | 'scope'
  | 'unauthorized'
  | 'forbidden'
  | 'remote_error'
  | 'timeout'
  | 'transport'
  | 'invalid_response'
  | 'config';

export interface ClientErrorDetails {
  code?: number;
  status?: number;
  data?: Record<string, unknown>;
  retry_after_ms?: number;
  /** A write whose reply was lost: it may or may not have been applied. */
  outcome_unknown?: boolean;
}

export class GateClientError extends Error {
  readonly code?: number;
  readonly status?: number;
  readonly data?: Record<string, unknown>;
  readonly retry_after_ms?: number;
  readonly outcome_unknown: boolean;

  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    details: ClientErrorDetails = {},
  ) {
    super(message);
    this.name = 'GateClientError';
    if (details.code !== undefined) this.code = details.code;
    if (details.status !== undefined) this.status = details.status;
    if (details.data !== undefined) this.data = details.data;
    if (details.retry_after_ms !== undefined) this.retry_after_ms = details.retry_after_ms;
    this.outcome_unknown = details.outcome_unknown ?? false;
  }
}

/** Rule 4 for a JSON-RPC (or tool) error code. */
export function kindOfCode(code: number): ClientErrorKind {
  if (code === -32000) return 'identity';
  if (code === -32001 || code === -32002) return 'request_too_large';
  if (code === -32600 || code === -32602) return 'invalid_params';
  if (code === -32601) return 'unsupported_operation';
  if (code === -32006) return 'busy';
  if (code === -32009) return 'banned';
  if (code === -32010 || (code >= -32014 && code <= -32012)) return 'refused';
  return 'remote_error';
}

/**
 * Rule 4 for an HTTP status that carries no JSON-RPC answer. The rule names 401 and 403
 * differently on the tool endpoint (`unauthorized`, `forbidden`) than on /rpc (`auth`,
 * `scope`); docs/spec-choices.md records that the client keeps both, by door.
 */
export function kindOfStatus(status: number, door: '/rpc' | '/mcp' = '/rpc'): ClientErrorKind {
  if (status === 401) return door === '/mcp' ? 'unauthorized' : 'auth';
  if (status === 403) return door === '/mcp' ? 'forbidden' : 'scope';
  if (status === 405) return 'unsupported_operation';
  if (status === 413) return 'request_too_large';
  if (status === 429 || status === 503) return 'busy';
  return 'remote_error';
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The error a JSON-RPC error object stands for. */
export function fromErrorObject(error: { code: number; message: string; data?: unknown }, extra: ClientErrorDetails = {}): GateClientError {
  const data = typeof error.data === 'object' && error.data !== null ? (error.data as Record<string, unknown>) : undefined;
  const retry = typeof data?.['retry_after_ms'] === 'number' ? (data['retry_after_ms'] as number) : undefined;
  return new GateClientError(kindOfCode(error.code), error.message, {
    ...extra,
    code: error.code,
    ...(data ? { data } : {}),
    ...(retry !== undefined ? { retry_after_ms: retry } : {}),
  });
}
