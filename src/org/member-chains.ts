import type { Pool } from 'pg';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import { inTransaction } from './org-database.js';
import { appendOrgLog } from './org-log.js';
import { RoundTripBatch } from './round-trip-batch.js';
import type { ShownEvent } from '../../workers/submission-check/submission-check.js';


/** One deployment, one seq, two ids: the member runs two chains. */
export interface ChainFork {
  seq: number;
  known: string;
  offered: string;
}

interface Offer {
  member: string;
  events: readonly ShownEvent[];
}

/**
 * Records, for every submission the check passed, the (seq, event id) pairs its signed events
 * show, and finds a pair whose seq the org has seen with another id, from this member before or
 * from another submission of the same batch. One statement a batch (RoundTripBatch), as the
 * intake's. Only the first id seen at a seq is kept: after a fork both chains' later events
 * are compared against whichever reached the org first.
 */
const OFFER = `
WITH offered AS (
  SELECT * FROM unnest($1::int[], $2::text[], $3::bigint[], $4::text[]) AS t(item, deployment_id, seq, event_id)
),
conflicts AS (
  SELECT o.item, o.seq, m.event_id AS known, o.event_id AS offered
    FROM offered o JOIN member_events m ON m.deployment_id = o.deployment_id AND m.seq = o.seq
   WHERE m.event_id <> o.event_id
  UNION ALL
  SELECT b.item, b.seq, a.event_id, b.event_id
    FROM offered a JOIN offered b ON a.deployment_id = b.deployment_id AND a.seq = b.seq AND a.event_id <> b.event_id AND a.item < b.item
),
kept AS (
  INSERT INTO member_events (deployment_id, seq, event_id)
  SELECT DISTINCT ON (deployment_id, seq) deployment_id, seq, event_id FROM offered ORDER BY deployment_id, seq, item
  ON CONFLICT DO NOTHING
)
SELECT DISTINCT ON (item) item, seq, known, offered FROM conflicts ORDER BY item, seq`;

export class MemberChains {
  private readonly batch: RoundTripBatch<Offer, ChainFork | null>;

  constructor(
    private readonly pool: Pool,
    private readonly key: DeploymentKey,
  ) {
    this.batch = new RoundTripBatch((offers) => this.write(offers), 256);
  }

  /** The fork this member's shown events reveal, or null; a fork is kept (member_forks) and journaled in the org log the first time. */
  async offer(member: string, events: readonly ShownEvent[]): Promise<ChainFork | null> {
    const fork = await this.batch.submit({ member, events });
    if (fork !== null) await this.record(member, fork);
    return fork;
  }

  private async write(offers: Offer[]): Promise<Array<ChainFork | null>> {
    const rows = offers.flatMap((o, item) => o.events.map(([seq, id]) => [item, o.member, seq, id] as const));
    if (rows.length === 0) return offers.map(() => null);
    const found = await this.pool.query<{ item: number; seq: string; known: string; offered: string }>({
      name: 'org-member-chains',
      text: OFFER,
      values: [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
    });
    const byItem = new Map(found.rows.map((r) => [r.item, { seq: Number(r.seq), known: r.known, offered: r.offered }]));
    return offers.map((_, item) => byItem.get(item) ?? null);
  }

  private async record(member: string, fork: ChainFork): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const first = await client.query(
        'INSERT INTO member_forks (deployment_id, seq, known_event_id, offered_event_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
        [member, fork.seq, fork.known, fork.offered],
      );
      if (first.rowCount === 1) {
        await appendOrgLog(client, this.key, 'member-forked', 'org', { deployment_id: member, seq: fork.seq, known_event_id: fork.known, offered_event_id: fork.offered });
      }
    });
  }
}

/** The refusal a forked member's submission gets (409), in words its operator can act on. */
export function forkRefusal(fork: ChainFork): string {
  return (
    `two chains under this deployment: its event at seq ${fork.seq} reached the organization as ${fork.known}, and this submission's as ${fork.offered}. ` +
    'A copy of the gate runs (or ran) beside its original under one deployment key: stop one, keep the other, and compare the two homes with gate verify --against (docs/operations.md, "Two chains under one deployment")'
  );
}

/**
 * Forgets what a member's submissions showed of its journal, once its operator has kept one of
 * two chains (`gate org member chain-reset`): the kept chain's submissions are compared afresh
 * from its next one. Journaled in the org's log; answers how many seqs were forgotten.
 */
export async function resetMemberChain(pool: Pool, key: DeploymentKey, deploymentId: string, by: string): Promise<number> {
  return inTransaction(pool, async (client) => {
    const forgotten = await client.query('DELETE FROM member_events WHERE deployment_id = $1', [deploymentId]);
    await client.query('DELETE FROM member_forks WHERE deployment_id = $1', [deploymentId]);
    await appendOrgLog(client, key, 'member-chain-reset', by, { deployment_id: deploymentId, seqs_forgotten: forgotten.rowCount ?? 0 });
    return forgotten.rowCount ?? 0;
  });
}
