import type { Log } from '../log.js';
import type { Decided, Decision } from './org-decision.js';

/**
 * A decision's line in the organization's process log, once it committed: `countersigned` or
 * `refused` (the row, the member, who decided and as which class, the log's seq, a refusal's
 * category, the people it was made with), or `decision waits for more people`. A refusal's
 * reason is a person's words and stays in the org's log.
 */
export function logDecision(log: Log, decided: Decided, d: Pick<Decision, 'by' | 'authority_class' | 'decision' | 'category'>): void {
  if (!decided.changed) return;
  const row = { artifact_id: decided.artifact_id, member_deployment_id: decided.deployment_id, by: d.by };
  if (decided.waits_for !== undefined) {
    log.info('decision waits for more people', { ...row, decision: d.decision, waits_for: decided.waits_for });
    return;
  }
  log.info(d.decision === 'countersign' ? 'countersigned' : 'refused', {
    ...row,
    authority_class: d.authority_class,
    seq: decided.seq,
    category: d.category,
    with: decided.with?.map((w) => w.by).join(' '),
  });
}

/** A decision the organization would not take (held by another, signed at the member, erased, ...): why, in a closed word. */
export function logDecisionRefused(log: Log, artifactId: string, by: string, reason: string): void {
  log.info('decision refused', { artifact_id: artifactId, by, reason });
}
