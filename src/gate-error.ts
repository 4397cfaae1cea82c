/**
 * The one error type of the gate. Handlers throw these; surfaces map them to their
 * wire form (JSON-RPC error object, HTTP status, tool error). The named constructors
 * carry the protocol's codes (docs/protocol.md#error-codes) so no handler builds a wire error by hand.
 */
export class GateError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'GateError';
  }

  toJSON(): { code: number; message: string; data?: Record<string, unknown> } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const ErrorCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  identity: -32000,
  tooLarge: -32001,
  quarantineFull: -32006,
  banned: -32009,
  lifecycle: -32010,
  semanticRefusal: -32014,
  storageBound: -32015,
} as const;

export const invalidParams = (message: string, data?: Record<string, unknown>) =>
  new GateError(ErrorCode.invalidParams, message, data);

/** Rule U: the only way to say "no such row"; identical for unreadable and nonexistent ids. */
export const unknownArtifact = (id: string) =>
  new GateError(ErrorCode.invalidParams, `unknown artifact: ${id.slice(0, 16)}`);

export const roleTooLow = (method: string, required: string, role: string) =>
  new GateError(ErrorCode.invalidParams, `${method} needs role ${required}; the caller has role ${role}`, {
    required,
    role,
  });

export const notGranted = (space: string, capability: string) =>
  new GateError(ErrorCode.invalidParams, `no ${capability} grant on space ${space}`, {
    reason: 'not_granted',
    space,
    capability,
  });

export const lifecycle = (message: string, reason?: string) =>
  new GateError(ErrorCode.lifecycle, message, reason === undefined ? undefined : { reason });

export const quarantineFull = (retryAfterMs: number) =>
  new GateError(ErrorCode.quarantineFull, 'quarantine is full; retry later', { retry_after_ms: retryAfterMs });

/**
 * -32006 with reason read_budget: this caller's long reads took its share of the gate's
 * main thread within the window (server.long_read_budget_ms); HTTP doors answer 429 with
 * Retry-After, as for any busy answer.
 */
export const readBudget = (retryAfterMs: number) =>
  new GateError(ErrorCode.quarantineFull, "this caller's long reads took their share of the gate's time; retry later", {
    reason: 'read_budget',
    retry_after_ms: retryAfterMs,
  });

/** Whether an error is a busy refusal an HTTP door answers 429 with Retry-After: a long read past its caller's budget. */
export const isReadBudgetRefusal = (error: { code: number; data?: Record<string, unknown> } | undefined): boolean =>
  error?.code === ErrorCode.quarantineFull && error.data?.['reason'] === 'read_budget';

/** -32015: this writer's uploads in the quota window are at their bound; they free as the window moves. */
export const uploadQuota = (retryAfterMs: number) =>
  new GateError(ErrorCode.storageBound, 'upload quota reached for this writer; retry later', {
    reason: 'upload_quota',
    retry_after_ms: retryAfterMs,
  });

/** -32015: the attachment store as a whole is at its bound; waiting does not free it. */
export const attachmentBudget = () =>
  new GateError(ErrorCode.storageBound, 'the attachment store is at its budget', { reason: 'attachment_budget' });

/** -32009: a write turned away at the door by a ban (docs/protocol.md#gvban); nothing of it was scanned or stored. */
export const banned = (kind: string, subject: string, until: number | null) =>
  new GateError(
    ErrorCode.banned,
    kind === 'writer' ? 'write refused at the door: this writer is banned' : 'write refused at the door: its source_uri is under a banned prefix',
    { kind, subject, ...(until === null ? {} : { until }) },
  );

export const internalError = (message: string, data?: Record<string, unknown>) =>
  new GateError(ErrorCode.internal, message, data);

/** A verb whose rule says "signed-in person only", called with an API key or from the socket. */
export const notAPerson = (method: string) =>
  new GateError(ErrorCode.invalidParams, `${method} is for a signed-in person; an API key or a socket peer may not call it`, {
    reason: 'not_a_person',
  });

/** The semantic reviewer could not run: a workflow blocker, never an approval (-32014). */
export const semanticRefusal = (message: string, data: Record<string, unknown>) => new GateError(ErrorCode.semanticRefusal, message, data);
