/** A countersign or refuse as the org's log holds it (org-decision.ts writes it). */
interface LoggedDecisionEvent {
  seq: number;
  type: 'countersign' | 'refuse';
  by: string;
  ts: number;
  data: { artifact_id: string; member_deployment_id: string; submission_id: string; trust_class: string; authority_class: string; category?: string; reason?: string; with?: Array<{ by: string; ts: number; reason?: string }> };
}

/**
 * A decision of the org's log as its readers are answered it: what members are sent (type,
 * row, the decider's class) and what stays at the org (who decided, a refusal's category and
 * reason). `body` is the log row's signed JSON.
 */
export function loggedDecision(body: string) {
  const e = JSON.parse(body) as LoggedDecisionEvent;
  return {
    seq: e.seq,
    type: e.type,
    artifact_id: e.data.artifact_id,
    member_deployment_id: e.data.member_deployment_id,
    submission_id: e.data.submission_id,
    trust_class: e.data.trust_class,
    authority_class: e.data.authority_class,
    by: e.by,
    ts: e.ts,
    ...(e.data.category === undefined ? {} : { category: e.data.category }),
    ...(e.data.reason === undefined ? {} : { reason: e.data.reason }),
    // A decision people made together: those before, whom the organization could not tell apart from the member's people.
    ...(e.data.with === undefined ? {} : { with: e.data.with }),
  };
}
