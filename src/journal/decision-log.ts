import type Database from 'better-sqlite3';
import type { Log } from '../log.js';
import type { JournalWriter } from './group-commit.js';
import { BanReads } from '../projections/ban-reads.js';

/** A source prefix may carry a query or fragment; neither is logged. */
const withoutQuery = (subject: string) => subject.split(/[?#]/)[0]!;

/**
 * Promotions (and their undoing) reach the log from the journal once committed, not from
 * the verbs that append them: several verbs and the settling of auto spaces promote, and a
 * line written inside a transaction that then rolls back would report what never happened.
 * Bans and their lifts are logged the same way, read from the bans view's acts.
 */
const LOGGED_TYPES = ['promote', 'ratify', 'demote'] as const;

export function logDecisions(db: Database.Database, writer: JournalWriter, log: Log): void {
  // Read from the review view's signatures (one small row per decision, keyed by seq), not the
  // journal: an ingest's commit then costs one empty range seek, where scanning the journal's
  // rows of the range cost 0.5% of the main thread under ingest (measured, bench/ingest.js --cpu-prof).
  const decisions = db.prepare<[number, number], { seq: number; type: string; by: string | null; artifact_id: string | null; space: string | null }>(
    `SELECT s.seq, s.type, s.signer AS by, s.artifact_id, a.space FROM signatures s LEFT JOIN artifacts a ON a.artifact_id = s.artifact_id
     WHERE s.seq > ? AND s.seq <= ? AND s.type IN (${LOGGED_TYPES.map((t) => `'${t}'`).join(', ')})`,
  );
  writer.onCommit((range) => {
    if (!log.enabled('info')) return;
    for (const d of decisions.iterate(range.after, range.last)) {
      log.info(d.type === 'demote' ? 'demoted' : d.type === 'ratify' ? 'ratified' : 'promoted', {
        artifact_id: d.artifact_id,
        space: d.space,
        by: d.by,
        seq: d.seq,
      });
    }
    for (const act of BanReads.of(db).acts(range.after, range.last)) {
      log.info(act.lift === 1 ? 'ban lifted' : 'banned', {
        kind: act.kind,
        subject: act.kind === 'source' ? withoutQuery(act.subject) : act.subject,
        by: act.by,
        seq: act.seq,
        ...(act.until === null ? {} : { until: act.until }),
      });
    }
  });
}
