/**
 * Named points where a test can make the process die as a power cut or `kill -9` would,
 * to prove a transaction leaves nothing half-applied. `GATE_FAILPOINTS` is a comma list of
 * names, read once when the process starts; unset (every real deployment) it is inert. A
 * name outside FAILPOINTS stops the start, so a typo never makes a test pass by not firing.
 */
export const FAILPOINTS = {
  /** gv.replacement_activate, after the children's promote events and before the relation events. */
  'replacement-activate-between-promote-and-relation': true,
  /** gv.upload, after the last chunk's bytes are fsynced and before the upload is completed. */
  'upload-before-completion': true,
  /** An upload's completion, after its bytes became the store's object and before upload-completed is journaled. */
  'upload-between-object-and-journal': true,
  /** Not a kill of the process: the image worker thread exits as it takes a task, as a hostile image can make it (see isArmed). */
  'image-worker-dies': true,
  /**
   * Not a kill either: the scan worker holds each batch for SCAN_STALL_MS before scanning it,
   * as hostile bytes can make a scan slow, so a test sees claims wait in the scan queue.
   */
  'scan-worker-stalls': true,
  /**
   * Not a kill either: the scan worker, once it has begun a claim whose text starts with
   * STALLED_CLAIM_PREFIX, holds it for SCAN_STALL_MS, as hostile bytes can make one claim's
   * scan slow, so a test sees that claim's deadline pass (and the others of its batch not).
   */
  'scan-claim-stalls': true,
  /**
   * Not a kill either: the socket cannot read its peer's credentials (SO_PEERCRED), as on a
   * descriptor the kernel no longer answers for, so a test sees the -32000 answer.
   */
  'socket-peer-credentials-unreadable': true,
} as const;
export type Failpoint = keyof typeof FAILPOINTS;

/** How long `scan-worker-stalls` holds each scan batch, and `scan-claim-stalls` a claim. */
export const SCAN_STALL_MS = 2_000;
/** The start of the claims `scan-claim-stalls` holds. */
export const STALLED_CLAIM_PREFIX = 'stall:';

function armed(env: string | undefined): ReadonlySet<string> {
  const names = (env ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.find((n) => !(n in FAILPOINTS));
  if (unknown !== undefined) {
    throw new Error(`GATE_FAILPOINTS names ${unknown}; the failpoints are: ${Object.keys(FAILPOINTS).join(', ')}`);
  }
  return new Set(names);
}

const ARMED = armed(process.env['GATE_FAILPOINTS']);

/**
 * Whether a point is armed, for a point that fails a part rather than the process: a
 * worker thread reads the same environment, so it can die as only itself.
 */
export function isArmed(name: Failpoint): boolean {
  return ARMED.has(name);
}

/** Dies on the spot when the point is armed: no handler, no exit hook, no commit runs after it. */
export function failpoint(name: Failpoint): void {
  if (ARMED.has(name)) process.kill(process.pid, 'SIGKILL');
}
