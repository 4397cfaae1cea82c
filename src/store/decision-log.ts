import type { Log } from '../log.js';
import type { CommitFollower, CommittedRange } from '../journal/followers.js';
import type { BanReads } from '../projections/ban-reads.js';
import type { Decision, ReviewReads } from '../projections/review-reads.js';
import { NEEDS_EVIDENCE_DECISION } from '../domain/states.js';

/** A source prefix may carry a query or fragment; neither is logged. */
const withoutQuery = (subject: string) => subject.split(/[?#]/)[0]!;

/** The log line's words for a decision: a ratify that sends a row back for evidence is no ratification. */
function decisionWords(d: Decision): string {
  if (d.type === 'demote') return 'demoted';
  if (d.type === 'promote') return 'promoted';
  return d.decision === NEEDS_EVIDENCE_DECISION ? 'sent back for evidence' : 'ratified';
}

/**
 * Promotions (and their undoing) reach the log from the journal once committed, not from
 * the verbs that append them: several verbs and the settling of auto spaces promote, and a
 * line written inside a transaction that then rolls back would report what never happened.
 * Bans and their lifts are logged the same way, read from the bans view's acts.
 *
 * Read from the review view's signatures (one small row per decision, keyed by seq), not the
 * journal: an ingest's commit then costs one empty range seek, where scanning the journal's
 * rows of the range cost 0.5% of the main thread under ingest (measured, bench/ingest.js --cpu-prof).
 */
export class DecisionLog implements CommitFollower {
  constructor(
    private readonly reviews: ReviewReads,
    private readonly bans: BanReads,
    private readonly log: Log,
  ) {}

  committed(range: CommittedRange): void {
    if (!this.log.enabled('info')) return;
    for (const d of this.reviews.decisionsIn(range.after, range.last)) {
      this.log.info(decisionWords(d), {
        artifact_id: d.artifact_id,
        space: d.space,
        by: d.by,
        seq: d.seq,
      });
    }
    for (const act of this.bans.acts(range.after, range.last)) {
      this.log.info(act.lift === 1 ? 'ban lifted' : 'banned', {
        kind: act.kind,
        subject: act.kind === 'source' ? withoutQuery(act.subject) : act.subject,
        by: act.by,
        seq: act.seq,
        ...(act.until === null ? {} : { until: act.until }),
      });
    }
  }
}
