import type Database from 'better-sqlite3';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import { verifyWithDeploymentId } from './deployment-key.js';
import type { EventEnvelope, JournalRow } from './event.js';

export interface ChainReport {
  ok: boolean;
  events: number;
  first_seq: number | null;
  last_seq: number | null;
  head: string | null;
  deployment_id: string | null;
  types: Record<string, number>;
  first_bad_seq?: number;
  problem?: string;
}

/**
 * Walks the whole journal offline: each body must be canonical, hash to its event id,
 * name the previous id, carry its own seq, and bear a valid signature by the deployment
 * key named by the genesis event. The first failure stops the walk and is reported by seq.
 */
export function verifyChain(db: Database.Database, expectedDeploymentId?: string): ChainReport {
  const types: Record<string, number> = {};
  let prev: string | null = null;
  let expectedSeq = 1;
  let deploymentId: string | null = expectedDeploymentId ?? null;
  let events = 0;
  let first: number | null = null;
  const bad = (seq: number, problem: string): ChainReport => ({
    ok: false,
    events,
    first_seq: first,
    last_seq: seq,
    head: prev,
    deployment_id: deploymentId,
    types,
    first_bad_seq: seq,
    problem,
  });
  for (const row of db.prepare('SELECT * FROM journal ORDER BY seq').iterate() as IterableIterator<JournalRow>) {
    first ??= row.seq;
    if (row.seq !== expectedSeq) return bad(row.seq, `seq ${row.seq} follows ${expectedSeq - 1}: a gap or reorder`);
    let envelope: EventEnvelope;
    try {
      envelope = JSON.parse(row.body) as EventEnvelope;
    } catch {
      return bad(row.seq, 'body is not JSON');
    }
    if (canonicalJson(envelope) !== row.body) return bad(row.seq, 'body is not in canonical form');
    if (sha256Hex(row.body) !== row.event_id) return bad(row.seq, 'event id is not the hash of the body');
    if (envelope.seq !== row.seq) return bad(row.seq, 'the signed seq differs from the stored seq');
    if (envelope.prev !== prev || row.prev !== prev) return bad(row.seq, 'prev does not name the previous event');
    if (envelope.type !== row.type || envelope.ts !== row.ts || envelope.by !== row.by) {
      return bad(row.seq, 'a stored column differs from the signed body');
    }
    if (deploymentId === null) {
      const id = envelope.type === 'deployment-created' ? envelope.data['deployment_id'] : undefined;
      if (typeof id !== 'string') return bad(row.seq, 'the first event does not name the deployment key');
      deploymentId = id;
    }
    let signed = false;
    try {
      signed = verifyWithDeploymentId(deploymentId, row.body, row.sig);
    } catch {
      signed = false;
    }
    if (!signed) return bad(row.seq, 'signature does not verify against the deployment key');
    types[row.type] = (types[row.type] ?? 0) + 1;
    prev = row.event_id;
    expectedSeq += 1;
    events += 1;
  }
  return { ok: true, events, first_seq: first, last_seq: events === 0 ? null : expectedSeq - 1, head: prev, deployment_id: deploymentId, types };
}
