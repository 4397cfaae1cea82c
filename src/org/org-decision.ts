import type { PoolClient } from 'pg';
import type { DeploymentKey } from '../journal/deployment-key.js';
import { COUNTERSIGN_CLASSES } from '../review/quorum.js';
import { appendOrgLog } from './org-log.js';
import { OUTCOME_CONTRACT, signOutcome, type Outcome } from './outcome-line.js';

/** The submitter is told one of these (FACTS "Scanner"); the reason text stays in the org's log. */
export const REFUSAL_CATEGORIES = ['off-scope', 'quality', 'policy', 'duplicate', 'unreadable'] as const;

/**
 * The deciding authority's signer class, in the gate's vocabulary: human (a signed-in
 * person at the org), agent (the holder of an org review or admin key: a program), deployment
 * (an org policy).
 */
export type AuthorityClass = 'human' | 'agent' | 'deployment';

export interface Decision {
  deployment_id: string;
  artifact_id: string;
  decision: 'countersign' | 'refuse';
  authority_class: AuthorityClass;
  by: string;
  category?: string;
  reason?: string;
}

export interface Decided {
  artifact_id: string;
  deployment_id: string;
  state: string;
  changed: boolean;
  seq: number | null;
  event_id: string | null;
}

export class DecisionRefused extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

/**
 * One decision, inside the caller's transaction: the inbox row is locked, the decision
 * journaled in the org's log (category and reason there only), the signed content-free
 * outcome line stored under the same seq, the row closed. A decided row answers unchanged.
 */
export async function decide(client: PoolClient, key: DeploymentKey, d: Decision): Promise<Decided> {
  const row = (
    await client.query<{ state: string; submission_id: string; trust_class: string }>(
      'SELECT state, submission_id, trust_class FROM submissions WHERE deployment_id = $1 AND artifact_id = $2 FOR UPDATE',
      [d.deployment_id, d.artifact_id],
    )
  ).rows[0];
  if (!row) throw new DecisionRefused('no such submission in the inbox', 'unknown_submission');
  const base = { artifact_id: d.artifact_id, deployment_id: d.deployment_id };
  if (row.state === 'countersigned' || row.state === 'refused') return { ...base, state: row.state, changed: false, seq: null, event_id: null };
  if (d.authority_class === 'deployment' && d.decision === 'countersign' && COUNTERSIGN_CLASSES.has(row.trust_class)) {
    throw new DecisionRefused(`${row.trust_class} always needs an org reviewer`, 'human_required');
  }
  // The row first: the log's lock (which every decision waits on) is then held for as little as can be.
  const state = d.decision === 'countersign' ? 'countersigned' : 'refused';
  await client.query('UPDATE submissions SET state = $3, decided_at = now(), held_by = NULL, held_until = NULL WHERE deployment_id = $1 AND artifact_id = $2', [
    d.deployment_id,
    d.artifact_id,
    state,
  ]);
  const logged = await appendOrgLog(client, key, d.decision, d.by, {
    artifact_id: d.artifact_id,
    member_deployment_id: d.deployment_id,
    submission_id: row.submission_id,
    trust_class: row.trust_class,
    authority_class: d.authority_class,
    ...(d.category === undefined ? {} : { category: d.category }),
    ...(d.reason === undefined ? {} : { reason: d.reason }),
  });
  const outcome: Outcome = {
    contract: OUTCOME_CONTRACT,
    type: d.decision,
    artifact_id: d.artifact_id,
    submission_id: row.submission_id,
    member_deployment_id: d.deployment_id,
    org_deployment_id: key.deploymentId,
    authority_class: d.authority_class,
    ts: logged.ts,
  };
  const line = { ...outcome, seq: logged.seq, sig: signOutcome(key, outcome) };
  await client.query('INSERT INTO outcomes (seq, deployment_id, artifact_id, line) VALUES ($1, $2, $3, $4)', [
    logged.seq,
    d.deployment_id,
    d.artifact_id,
    JSON.stringify(line),
  ]);
  return { ...base, state, changed: true, seq: logged.seq, event_id: logged.event_id };
}
