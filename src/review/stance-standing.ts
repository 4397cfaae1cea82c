import type { RunRow, SignatureRow } from '../projections/review-reads.js';
import { modelLabel } from '../../workers/grade/backend.js';
import type { ReviewSettings } from './review-settings.js';

/**
 * Where one configured stance stands on a row in the current epoch: its model's newest
 * decision (null when it has not answered), and the runs it made since the row began
 * waiting, so a failed or blocked stance can be named with its failure.
 */
export interface StanceStanding {
  stance: string;
  backend: string;
  model_label: string;
  decision: 'approve' | 'reject' | null;
  /** The stance's newest run when it has no decision: failed or blocked, with the failure kind. */
  last_run: { state: string; failure: string | null; detail: string | null } | null;
  /** Failed runs of this stance since its last completed one. */
  failed_in_a_row: number;
}

/**
 * Every configured stance is required: a model approval counts toward k only once each
 * stance's model has answered approve in this epoch. A stance that failed, was blocked or
 * never ran leaves the row waiting, so an auto space can never promote on the stances that
 * happened to answer (fail closed).
 */
export function stanceStandings(settings: ReviewSettings, current: readonly SignatureRow[], runs: readonly RunRow[]): StanceStanding[] {
  return settings.stances.map(({ stance, backend }) => {
    const label = modelLabel(backend.backend);
    const verdicts = current.filter((s) => s.type === 'verdict' && s.signer === label && s.stance === stance);
    const newest = verdicts[verdicts.length - 1];
    const own = runs.filter((r) => r.model_label === label && r.stance === stance);
    let failedInARow = 0;
    for (let i = own.length - 1; i >= 0 && own[i]!.state !== 'completed'; i--) if (own[i]!.state === 'failed') failedInARow += 1;
    const last = own[own.length - 1];
    const decision = newest === undefined ? null : newest.decision === 'approve' ? 'approve' : 'reject';
    return {
      stance,
      backend: backend.backend.name,
      model_label: label,
      decision,
      last_run: decision === null && last !== undefined && last.state !== 'completed' ? { state: last.state, failure: last.failure, detail: last.detail } : null,
      failed_in_a_row: failedInARow,
    };
  });
}

/** Why models' approvals do not count yet, or null when every stance approved. */
export function unansweredStances(standings: readonly StanceStanding[]): string | null {
  const open = standings.filter((s) => s.decision !== 'approve');
  if (open.length === 0) return null;
  return `every configured stance must approve first; waiting for ${open
    .map((s) => `${s.stance} (${s.decision === 'reject' ? 'rejected' : (s.last_run?.failure ?? s.last_run?.state ?? 'not answered')})`)
    .join(', ')}`;
}
