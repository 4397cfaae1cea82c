import type { Pool, PoolClient } from 'pg';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import { COUNTERSIGN_CLASSES } from '../domain/countersign-classes.js';
import { inTransaction } from './org-database.js';
import { appendOrgLogMany, type OrgLogEntry } from './org-log.js';
import { OUTCOME_CONTRACT, signOutcome, type AuthorityClass, type Outcome } from '../forms/outcome-line.js';
import { RoundTripBatch } from './round-trip-batch.js';

/** The submitter is told one of these (docs/protocol.md#organization-doors); the reason text stays in the org's log. */
export const REFUSAL_CATEGORIES = ['off-scope', 'quality', 'policy', 'duplicate', 'unreadable'] as const;

export interface Decision {
  deployment_id: string;
  artifact_id: string;
  decision: 'countersign' | 'refuse';
  authority_class: AuthorityClass;
  by: string;
  /** A reviewer's decision: refused while another reviewer's hold on the row is live. Absent for a policy. */
  reviewer?: string;
  category?: string;
  reason?: string;
  /** The submission the decider read (and was matched against): refused when the member has sent a newer one since. */
  submission_id?: string;
  /**
   * The member's people the decider cannot be told apart from (person-match.ts); absent when
   * the decider was told apart from all of them, or is no person. Present, the decision waits
   * until more people make it than there are member people none of them could be told apart
   * from (peopleStillNeeded).
   */
  unmatched?: string[];
}

/** A decision waiting for others' (the inbox row's waiting_decisions). */
export interface WaitingDecision {
  decision: 'countersign' | 'refuse';
  by: string;
  ts: number;
  submission_id: string;
  unmatched: string[];
  category?: string;
  reason?: string;
}

/**
 * How many more people must make a decision for it to stand, given those who made it so far
 * (each with the member's people they could not be told apart from): none once they outnumber
 * all those member people together, since distinct people cannot all be among fewer people.
 */
export function peopleStillNeeded(group: ReadonlyArray<Pick<WaitingDecision, 'unmatched'>>): number {
  const union = new Set(group.flatMap((g) => g.unmatched));
  return Math.max(0, union.size + 1 - group.length);
}

const waitingOf = (row: { waiting_decisions: string | null; submission_id: string }): WaitingDecision[] =>
  row.waiting_decisions === null ? [] : (JSON.parse(row.waiting_decisions) as WaitingDecision[]).filter((w) => w.submission_id === row.submission_id);

export interface Decided {
  artifact_id: string;
  deployment_id: string;
  state: string;
  changed: boolean;
  seq: number | null;
  event_id: string | null;
  /** Recorded, not yet standing: how many more people must make the same decision. */
  waits_for?: number;
  /** The earlier decisions of the same kind, by people who could not be told apart, that this one completed. */
  with?: Array<{ by: string; ts: number }>;
}

export class DecisionRefused extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

interface InboxRow {
  deployment_id: string;
  artifact_id: string;
  state: string;
  submission_id: string;
  trust_class: string;
  held_by: string | null;
  live: boolean;
  waiting_decisions: string | null;
}

const rowKey = (deploymentId: string, artifactId: string) => `${deploymentId} ${artifactId}`;

/**
 * Decisions, inside the caller's transaction, in order: the inbox rows are locked (in one
 * fixed order, so two batches never wait on each other crosswise), each decision checked
 * against its row as the decisions before it in the batch left it, then every decision that
 * stands is journaled in the org's log (category and reason there only; one lock, one head
 * read, one INSERT for all), its signed content-free outcome line stored under the same seq,
 * its row closed. A decided row answers unchanged; a refused decision answers its
 * DecisionRefused and changes nothing.
 */
export async function decideAll(client: PoolClient, key: DeploymentKey, decisions: Decision[]): Promise<Array<Decided | DecisionRefused>> {
  const locked = await client.query<InboxRow>({
    name: 'org-decide-lock-rows',
    text: `SELECT s.deployment_id, s.artifact_id, s.state, s.submission_id, s.trust_class, s.held_by, s.held_until > now() AS live, s.waiting_decisions
             FROM submissions s JOIN unnest($1::text[], $2::text[]) AS t(deployment_id, artifact_id)
               ON s.deployment_id = t.deployment_id AND s.artifact_id = t.artifact_id
            ORDER BY s.deployment_id, s.artifact_id FOR UPDATE OF s`,
    values: [decisions.map((d) => d.deployment_id), decisions.map((d) => d.artifact_id)],
  });
  const rows = new Map(locked.rows.map((r) => [rowKey(r.deployment_id, r.artifact_id), r]));
  const standing: { index: number; d: Decision; row: InboxRow; state: 'countersigned' | 'refused'; joined: WaitingDecision[] }[] = [];
  const recorded: { d: Decision; row: InboxRow }[] = [];
  const answers: Array<Decided | DecisionRefused> = decisions.map((d, index) => {
    const row = rows.get(rowKey(d.deployment_id, d.artifact_id));
    if (!row) return new DecisionRefused('no such submission in the inbox', 'unknown_submission');
    const base = { artifact_id: d.artifact_id, deployment_id: d.deployment_id };
    if (row.state === 'countersigned' || row.state === 'refused') return { ...base, state: row.state, changed: false, seq: null, event_id: null };
    if (row.state === 'retracted') return new DecisionRefused("the member erased this row's content: there is nothing to decide", 'retracted');
    if (d.submission_id !== undefined && d.submission_id !== row.submission_id) {
      return new DecisionRefused('the member sent a newer submission of this row since it was read; read it again', 'submission_changed');
    }
    if (d.reviewer !== undefined && row.state === 'held' && row.held_by !== d.reviewer && row.live) {
      return new DecisionRefused('another reviewer holds this submission', 'held_by_other');
    }
    if (d.authority_class === 'deployment' && d.decision === 'countersign' && COUNTERSIGN_CLASSES.has(row.trust_class)) {
      return new DecisionRefused(`${row.trust_class} always needs an org reviewer`, 'human_required');
    }
    const waiting = waitingOf(row);
    // The same decision by others, waiting: this one may complete it.
    const joined = waiting.filter((w) => w.decision === d.decision && w.by !== d.by);
    if (d.unmatched !== undefined) {
      const mine = { unmatched: d.unmatched };
      const still = peopleStillNeeded([...joined, mine]);
      if (still > 0) {
        if (waiting.some((w) => w.by === d.by && w.decision === d.decision)) return { ...base, state: row.state, changed: false, seq: null, event_id: null, waits_for: still };
        const entry: WaitingDecision = {
          decision: d.decision,
          by: d.by,
          ts: Date.now(),
          submission_id: row.submission_id,
          unmatched: d.unmatched,
          ...(d.category === undefined ? {} : { category: d.category }),
          ...(d.reason === undefined ? {} : { reason: d.reason }),
        };
        // A person's other decision waiting is replaced by this one; a later decision on the row in this batch finds it waiting.
        row.waiting_decisions = JSON.stringify([...waiting.filter((w) => w.by !== d.by), entry]);
        // The hold is let go, so another person can take it.
        row.state = 'leased';
        row.held_by = null;
        recorded.push({ d, row });
        return { ...base, state: 'leased', changed: true, seq: null, event_id: null, waits_for: still };
      }
    }
    const state = d.decision === 'countersign' ? 'countersigned' : 'refused';
    // A later decision on the same row in this batch finds it decided.
    row.state = state;
    standing.push({ index, d, row, state, joined });
    return { ...base, state, changed: true, seq: null, event_id: null, ...(joined.length === 0 ? {} : { with: joined.map((w) => ({ by: w.by, ts: w.ts })) }) };
  });
  // A row a later decision in the batch decided is closed below, not left waiting.
  const waitingRows = [...new Map(recorded.filter((r) => r.row.state === 'leased').map((r) => [rowKey(r.d.deployment_id, r.d.artifact_id), r])).values()];
  if (waitingRows.length > 0) {
    await client.query({
      name: 'org-decide-waiting',
      text: `UPDATE submissions s SET waiting_decisions = t.waiting, state = 'leased', held_by = NULL, held_until = NULL
               FROM unnest($1::text[], $2::text[], $3::text[]) AS t(deployment_id, artifact_id, waiting)
              WHERE s.deployment_id = t.deployment_id AND s.artifact_id = t.artifact_id`,
      values: [waitingRows.map((r) => r.d.deployment_id), waitingRows.map((r) => r.d.artifact_id), waitingRows.map((r) => r.row.waiting_decisions)],
    });
  }
  if (standing.length === 0) return answers;
  await client.query({
    name: 'org-decide-close-rows',
    text: `UPDATE submissions s SET state = t.state, decided_at = now(), held_by = NULL, held_until = NULL, waiting_decisions = NULL
             FROM unnest($1::text[], $2::text[], $3::text[]) AS t(deployment_id, artifact_id, state)
            WHERE s.deployment_id = t.deployment_id AND s.artifact_id = t.artifact_id`,
    values: [standing.map((s) => s.d.deployment_id), standing.map((s) => s.d.artifact_id), standing.map((s) => s.state)],
  });
  const entries: OrgLogEntry[] = standing.map(({ d, row, joined }) => ({
    type: d.decision,
    by: d.by,
    data: {
      artifact_id: d.artifact_id,
      member_deployment_id: d.deployment_id,
      submission_id: row.submission_id,
      trust_class: row.trust_class,
      authority_class: d.authority_class,
      ...(d.category === undefined ? {} : { category: d.category }),
      ...(d.reason === undefined ? {} : { reason: d.reason }),
      // People decided together: those before, whom the organization could not tell apart from the member's people, are named too.
      ...(joined.length === 0 ? {} : { with: joined.map((w) => ({ by: w.by, ts: w.ts, ...(w.reason === undefined ? {} : { reason: w.reason }) })) }),
    },
  }));
  const logged = await appendOrgLogMany(client, key, entries);
  const lines = standing.map(({ d, row }, i) => {
    const outcome: Outcome = {
      contract: OUTCOME_CONTRACT,
      type: d.decision,
      artifact_id: d.artifact_id,
      submission_id: row.submission_id,
      member_deployment_id: d.deployment_id,
      org_deployment_id: key.deploymentId,
      authority_class: d.authority_class,
      ts: logged[i]!.ts,
    };
    return JSON.stringify({ ...outcome, seq: logged[i]!.seq, sig: signOutcome(key, outcome) });
  });
  await client.query({
    name: 'org-decide-outcomes',
    text: `INSERT INTO outcomes (seq, deployment_id, artifact_id, line)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])`,
    values: [logged.map((l) => l.seq), standing.map((s) => s.d.deployment_id), standing.map((s) => s.d.artifact_id), lines],
  });
  standing.forEach(({ index }, i) => {
    answers[index] = { ...(answers[index] as Decided), seq: logged[i]!.seq, event_id: logged[i]!.event_id };
  });
  return answers;
}

/**
 * Reviewers' decisions grouped like the gate's journal commits: those that arrive while a
 * batch commits share the next transaction, so the log's lock, its head and the commit are
 * paid once per batch, not per decision.
 */
export class DecisionBatch {
  private readonly batch: RoundTripBatch<Decision, Decided | DecisionRefused>;

  constructor(pool: Pool, key: DeploymentKey, maxBatch = 256) {
    this.batch = new RoundTripBatch((decisions) => inTransaction(pool, (client) => decideAll(client, key, decisions)), maxBatch);
  }

  take(decision: Decision): Promise<Decided | DecisionRefused> {
    return this.batch.submit(decision);
  }
}
