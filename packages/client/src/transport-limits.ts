/** Client defaults (docs/protocol.md#client-transport-rules, rule 2). */
export const DEFAULT_DEADLINE_MS = 10_000;
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface TransportLimits {
  /** One deadline for connecting, sending and every read of a call. */
  deadlineMs: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
}

export const limitsOf = (o: Partial<TransportLimits>): TransportLimits => ({
  deadlineMs: o.deadlineMs ?? DEFAULT_DEADLINE_MS,
  maxRequestBytes: o.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
  maxResponseBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
});

/** What a transport hands back: the parsed reply and, over HTTP, its status. */
export interface RawReply {
  value: unknown;
  status?: number;
}

/** One message out, one reply back; never a retry. `write` marks a call whose loss leaves its outcome unknown. */
export interface Transport {
  roundTrip(message: Record<string, unknown>, write: boolean): Promise<RawReply>;
  close(): Promise<void>;
}

/** Errors that prove nothing was sent: the connection never opened. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EACCES']);
export const provablyUnsent = (error: unknown): boolean => NOT_SENT.has(String((error as { code?: unknown })?.code ?? ''));
