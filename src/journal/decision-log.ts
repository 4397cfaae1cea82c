import type Database from 'better-sqlite3';
import type { Log } from '../log.js';
import type { JournalWriter } from './group-commit.js';

/**
 * Promotions (and their undoing) reach the log from the journal once committed, not from
 * the verbs that append them: several verbs and the settling of auto spaces promote, and a
 * line written inside a transaction that then rolls back would report what never happened.
 * A ban, when a verb journals one, is one more type here.
 */
const LOGGED_TYPES = ['promote', 'ratify', 'demote'] as const;

export function logDecisions(db: Database.Database, writer: JournalWriter, log: Log): void {
  const decisions = db.prepare<[number, number], { seq: number; type: string; by: string | null; artifact_id: string | null; space: string | null }>(
    `SELECT seq, type, by, artifact_id, space FROM journal WHERE seq > ? AND seq <= ? AND type IN (${LOGGED_TYPES.map((t) => `'${t}'`).join(', ')})`,
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
  });
}
