/** One request as a door saw it when its answer was done: what /metrics counts and times. */
export interface ObservedRequest {
  /** rpc, mcp, socket, oauth or http. */
  door: string;
  /** The verb or tool served, when the door knows one this gate serves (never the caller's own text). */
  verb: string | undefined;
  /** The HTTP status (200 on the socket; 0 for an answer cut short). */
  status: number;
  /** A JSON-RPC error code, when the answer carried one. */
  code: number | undefined;
  seconds: number;
  /** gv.recall's mode, for a recall. */
  recallMode?: string | undefined;
}

/** Where the doors report each request (GateMetrics); a gate built without metrics reports nowhere. */
export interface RequestObserver {
  request(observed: ObservedRequest): void;
}

/** ok, refused (a 4xx or a JSON-RPC refusal), busy (429, 503) or failed (5xx, -32603, cut): the outcomes /metrics counts. */
export function outcomeOf(status: number, code: number | undefined): 'ok' | 'refused' | 'busy' | 'failed' {
  if (status === 429 || status === 503 || code === -32006) return 'busy';
  if (status === 0 || status >= 500 || code === -32603) return 'failed';
  if (status >= 400 || code !== undefined) return 'refused';
  return 'ok';
}
