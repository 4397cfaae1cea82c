import { canonicalJson, sha256Hex } from './canonical-json.js';
import { verifyWithDeploymentId } from './ed25519.js';
import type { EventEnvelope } from './event.js';

/** One stored event of a signed chain: the gate's journal row, or the org gate's log row. */
export interface StoredEvent {
  seq: number;
  event_id: string;
  prev: string | null;
  body: string;
  sig: string;
  /** Columns a store keeps beside the body, each of which must equal the signed body's. */
  type?: string;
  ts?: number;
  by?: string | null;
}

/**
 * Whether a stored event holds as the next link after `prev`, signature aside: its body is
 * JSON in canonical form, hashes to its event id, carries its own seq and names the event
 * before it, and every column kept beside it says what the body says. The one check behind
 * `gate verify` and `gate org verify`.
 */
export function linkProblem(row: StoredEvent, expectedSeq: number, prev: string | null): { envelope: EventEnvelope } | { problem: string } {
  if (row.seq !== expectedSeq) return { problem: `seq ${row.seq} follows ${expectedSeq - 1}: a gap or reorder` };
  let envelope: EventEnvelope;
  try {
    envelope = JSON.parse(row.body) as EventEnvelope;
  } catch {
    return { problem: 'body is not JSON' };
  }
  if (canonicalJson(envelope) !== row.body) return { problem: 'body is not in canonical form' };
  if (sha256Hex(row.body) !== row.event_id) return { problem: 'event id is not the hash of the body' };
  if (envelope.seq !== row.seq) return { problem: 'the signed seq differs from the stored seq' };
  if (envelope.prev !== prev || row.prev !== prev) return { problem: 'prev does not name the previous event' };
  if ((row.type !== undefined && envelope.type !== row.type) || (row.ts !== undefined && envelope.ts !== row.ts) || (row.by !== undefined && envelope.by !== row.by)) {
    return { problem: 'a stored column differs from the signed body' };
  }
  return { envelope };
}

/** Whether the event's signature verifies against the deployment id; a malformed signature is one that does not. */
export function signatureHolds(deploymentId: string, row: StoredEvent): boolean {
  try {
    return verifyWithDeploymentId(deploymentId, row.body, row.sig);
  } catch {
    return false;
  }
}
