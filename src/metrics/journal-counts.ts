import type { JournalEvent } from '../forms/event.js';
import type { AppendFollower, CommitFollower, CommittedRange } from '../journal/followers.js';

/** What one committed event adds to the counts: its type, and what it means for a claim or a grading call. */
interface Counted {
  type: string;
  /** The state a row event moves its row into (`enters`), when it names one. */
  enters: string | null;
  /** A grading call (review-run, assessment): its backend and how it ended. */
  grading: { backend: string; outcome: string; tokens: number } | null;
}

/**
 * Counts of the events this process committed, for /metrics: by type, the claims that
 * entered REJECTED (by the event that took them there), and grading calls by backend and
 * outcome. An event is read as it is appended (it is in memory then: no journal read) and
 * counted once its commit lands, so a write that rolled back counts nothing (its seq is
 * appended again by the next write, which replaces what was noted).
 */
export class JournalCounts implements CommitFollower {
  readonly byType = new Map<string, number>();
  readonly rejectedBy = new Map<string, number>();
  /** `backend\toutcome` → calls; tokens by backend. */
  readonly gradingCalls = new Map<string, number>();
  readonly gradingTokens = new Map<string, number>();
  private readonly pending = new Map<number, Counted>();

  /** The views' follower with these counts beside it: the journal tells both of each append. */
  following(views: AppendFollower): AppendFollower {
    return {
      apply: (event, next) => {
        views.apply(event, next);
        this.pending.set(event.seq, counted(event));
      },
    };
  }

  committed(range: CommittedRange): void {
    for (let seq = range.after + 1; seq <= range.last; seq++) {
      const c = this.pending.get(seq);
      if (c === undefined) continue;
      this.pending.delete(seq);
      add(this.byType, c.type, 1);
      if (c.enters === 'REJECTED') add(this.rejectedBy, c.type, 1);
      if (c.grading !== null) {
        add(this.gradingCalls, `${c.grading.backend}\t${c.grading.outcome}`, 1);
        add(this.gradingTokens, c.grading.backend, c.grading.tokens);
      }
    }
  }
}

function add(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function counted(event: JournalEvent): Counted {
  const d = event.data;
  const enters = typeof d['enters'] === 'string' ? d['enters'] : null;
  let grading: Counted['grading'] = null;
  if ((event.type === 'review-run' || event.type === 'assessment') && typeof d['backend'] === 'string') {
    const outcome = d['from_record'] === true ? 'from_record' : typeof d['state'] === 'string' ? d['state'] : 'completed';
    grading = { backend: d['backend'], outcome, tokens: typeof d['cost_tokens'] === 'number' ? d['cost_tokens'] : 0 };
  }
  return { type: event.type, enters, grading };
}
