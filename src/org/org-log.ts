import type { PoolClient, Pool } from 'pg';
import { canonicalJson, sha256Hex } from '../forms/canonical-json.js';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import { linkProblem, signatureHolds } from '../forms/event-link.js';
import type { EventEnvelope } from '../forms/event.js';

/** Serializes appends across every org process: the chain has one head. Any fixed number. */
const LOG_LOCK = 0x6f72676c;

export interface LoggedEvent {
  seq: number;
  event_id: string;
  ts: number;
}

export interface OrgLogEntry {
  type: string;
  by: string | null;
  data: Record<string, unknown>;
}

/**
 * Appends events to the org's log inside the caller's transaction, in order: the same
 * envelope, canonical JSON, id and Ed25519 signature as the gate's journal, chained by
 * `prev`. The transaction lock holds the head until commit, so seqs commit in order and an
 * outcome cursor (the seq) never skips a line a slower writer commits later. Several
 * events (a batch of decisions) take the lock and read the head once and go in one INSERT.
 */
export async function appendOrgLogMany(client: PoolClient, key: DeploymentKey, entries: OrgLogEntry[]): Promise<LoggedEvent[]> {
  if (entries.length === 0) return [];
  await client.query({ name: 'org-log-lock', text: 'SELECT pg_advisory_xact_lock($1)', values: [LOG_LOCK] });
  const head = (await client.query<{ seq: string; event_id: string }>({ name: 'org-log-head', text: 'SELECT seq, event_id FROM org_log ORDER BY seq DESC LIMIT 1' })).rows[0];
  let seq = head ? Number(head.seq) : 0;
  let prev = head ? head.event_id : null;
  const rows = entries.map((entry) => {
    seq += 1;
    const envelope: EventEnvelope = { v: 1, seq, type: entry.type, ts: Date.now(), prev, by: entry.by, data: entry.data };
    const body = canonicalJson(envelope);
    const eventId = sha256Hex(body);
    const row = { seq, event_id: eventId, prev, type: entry.type, body, sig: key.sign(body), ts: envelope.ts };
    prev = eventId;
    return row;
  });
  await client.query({
    name: 'org-log-insert',
    text: `INSERT INTO org_log (seq, event_id, prev, type, body, sig)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    values: [rows.map((r) => r.seq), rows.map((r) => r.event_id), rows.map((r) => r.prev), rows.map((r) => r.type), rows.map((r) => r.body), rows.map((r) => r.sig)],
  });
  return rows.map((r) => ({ seq: r.seq, event_id: r.event_id, ts: r.ts }));
}

/** One event: appendOrgLogMany with one entry. */
export async function appendOrgLog(
  client: PoolClient,
  key: DeploymentKey,
  type: string,
  by: string | null,
  data: Record<string, unknown>,
): Promise<LoggedEvent> {
  return (await appendOrgLogMany(client, key, [{ type, by, data }]))[0]!;
}

export interface OrgLogReport {
  ok: boolean;
  events: number;
  first_bad_seq: number | null;
  problem: string | null;
}

/** Walks the whole log: ids, chain links and signatures against the org's deployment id. */
export async function verifyOrgLog(pool: Pool, deploymentId: string): Promise<OrgLogReport> {
  let prev: string | null = null;
  let expected = 1;
  let count = 0;
  let after = 0;
  for (;;) {
    const rows = (
      await pool.query<{ seq: string; event_id: string; prev: string | null; type: string; body: string; sig: string }>(
        'SELECT seq, event_id, prev, type, body, sig FROM org_log WHERE seq > $1 ORDER BY seq LIMIT 1000',
        [after],
      )
    ).rows;
    if (rows.length === 0) return { ok: true, events: count, first_bad_seq: null, problem: null };
    for (const row of rows) {
      const seq = Number(row.seq);
      const bad = (problem: string): OrgLogReport => ({ ok: false, events: count, first_bad_seq: seq, problem });
      const stored = { ...row, seq };
      const link = linkProblem(stored, expected, prev);
      if ('problem' in link) return bad(link.problem);
      if (!signatureHolds(deploymentId, stored)) return bad("signature does not verify against the org's deployment id");
      prev = row.event_id;
      expected += 1;
      count += 1;
      after = seq;
    }
  }
}
