import type Database from 'better-sqlite3';
import type { JournalRow } from '../forms/event.js';
import { linkProblem, signatureHolds } from '../forms/event-link.js';
import { MerkleFrontier } from '../forms/merkle-frontier.js';
import { eventLeafHash } from '../forms/merkle-hash.js';
import { KEY_ROTATED, SigningKeys, type SigningKey } from '../forms/signing-keys.js';

export interface ChainReport {
  ok: boolean;
  events: number;
  first_seq: number | null;
  last_seq: number | null;
  head: string | null;
  deployment_id: string | null;
  /** The deployment's signing keys, the genesis key first, each with the first seq it signs (more than one after `gate key rotate`). */
  keys: SigningKey[];
  types: Record<string, number>;
  /** The RFC 9162 root (base64) over the events verified, leaf i being seq i + 1's id. */
  root: string;
  first_bad_seq?: number;
  problem?: string;
}

/**
 * Walks the whole journal offline: each body must be canonical, hash to its event id,
 * name the previous id, carry its own seq, and bear a valid signature by the key signing at
 * its seq: the deployment key named by the genesis event, then each key a rotation names
 * (a key-rotated event, signed by the key it retires). The first failure stops the walk and
 * is reported by seq.
 * The walk also computes the Merkle root of the events it verified, from their ids alone.
 */
export function verifyChain(db: Database.Database, expectedDeploymentId?: string): ChainReport {
  const types: Record<string, number> = {};
  let prev: string | null = null;
  let expectedSeq = 1;
  let deploymentId: string | null = expectedDeploymentId ?? null;
  let keys: SigningKeys | null = deploymentId === null ? null : SigningKeys.ofDeployment(deploymentId);
  let events = 0;
  let first: number | null = null;
  const tree = new MerkleFrontier();
  const bad = (seq: number, problem: string): ChainReport => ({
    ok: false,
    events,
    first_seq: first,
    last_seq: seq,
    head: prev,
    deployment_id: deploymentId,
    keys: [...(keys?.keys ?? [])],
    types,
    root: tree.root().toString('base64'),
    first_bad_seq: seq,
    problem,
  });
  for (const row of db.prepare('SELECT * FROM journal ORDER BY seq').iterate() as IterableIterator<JournalRow>) {
    first ??= row.seq;
    const link = linkProblem(row, expectedSeq, prev);
    if ('problem' in link) return bad(row.seq, link.problem);
    const envelope = link.envelope;
    if (deploymentId === null) {
      const id = envelope.type === 'deployment-created' ? envelope.data['deployment_id'] : undefined;
      if (typeof id !== 'string') return bad(row.seq, 'the first event does not name the deployment key');
      deploymentId = id;
      keys = SigningKeys.ofDeployment(id);
    }
    const signing = keys!.keyAt(row.seq);
    if (!signatureHolds(signing, row)) {
      return bad(row.seq, keys!.rotated ? `signature does not verify against the key signing at seq ${row.seq} (${signing})` : 'signature does not verify against the deployment key');
    }
    if (envelope.type === KEY_ROTATED) {
      const next = keys!.after(row);
      if ('problem' in next) return bad(row.seq, next.problem);
      keys = next;
    }
    types[row.type] = (types[row.type] ?? 0) + 1;
    tree.push(eventLeafHash(row.event_id));
    prev = row.event_id;
    expectedSeq += 1;
    events += 1;
  }
  return {
    ok: true,
    events,
    first_seq: first,
    last_seq: events === 0 ? null : expectedSeq - 1,
    head: prev,
    deployment_id: deploymentId,
    keys: [...(keys?.keys ?? [])],
    types,
    root: tree.root().toString('base64'),
  };
}
