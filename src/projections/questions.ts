import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { QuestionReads } from './question-reads.js';
import { defineView } from './define-view.js';

const MINUTE_MS = 60_000;

/**
 * Questions' routing (docs/protocol.md#other-state-words) and the answers naming them. The
 * `questions` row of a question exists from its first `question-routed` event: the route,
 * its reason or crew, and the wait fixed when it was routed; `question-wait-over` moves it
 * on (to people, or to its end) and `question-ended` records its asker ending it. Whether
 * it is held, answered or no longer served is read from the artifacts view beside it
 * (src/questions/question-state.ts). `answers` lists every answer/1 row with the question
 * it names first and what it replaces or cancels, from the row's ingest event. A crew's
 * `question-referred` (issue 19 appends it) routes the question to people, reason
 * `referred`, keeping the crew's `referral` for gv.question to serve to people alone;
 * `question-answered-by-crew` names the crew's answer that, served, answers the question.
 */
export function questionTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.questions (
      artifact_id TEXT PRIMARY KEY,
      space TEXT NOT NULL,
      route TEXT NOT NULL,
      reason TEXT,
      crew TEXT,
      wait_minutes INTEGER,
      wait_until INTEGER,
      routed_seq INTEGER NOT NULL,
      routed_ts INTEGER NOT NULL,
      referral TEXT,
      crew_answer TEXT,
      ended_reason TEXT,
      ended_seq INTEGER,
      ended_ts INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.questions_waiting ON questions(route, wait_until) WHERE ended_reason IS NULL;
    CREATE TABLE IF NOT EXISTS ${schema}.answers (
      artifact_id TEXT PRIMARY KEY,
      question TEXT NOT NULL,
      writer TEXT NOT NULL,
      writer_kind TEXT NOT NULL,
      replaces TEXT,
      cancels TEXT,
      refer INTEGER NOT NULL,
      seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.answers_question ON answers(question, seq);
    CREATE INDEX IF NOT EXISTS ${schema}.answers_cancels ON answers(cancels) WHERE cancels IS NOT NULL;
  `;
}

export const questionDigestQueries = (schema: string) => ({
  questions: `SELECT * FROM ${schema}.questions ORDER BY artifact_id`,
  answers: `SELECT * FROM ${schema}.answers ORDER BY artifact_id`,
});

const str = (d: Record<string, unknown>, k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
const waitUntil = (ts: number, minutes: number | null) => (minutes === null || minutes === 0 ? null : ts + minutes * MINUTE_MS);

export class QuestionReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      routed: p(`INSERT INTO ${schema}.questions (artifact_id, space, route, reason, crew, wait_minutes, wait_until, routed_seq, routed_ts)
        VALUES (@artifact_id, @space, @route, @reason, @crew, @wait_minutes, @wait_until, @seq, @ts)
        ON CONFLICT(artifact_id) DO UPDATE SET route = excluded.route, reason = excluded.reason, crew = excluded.crew,
          wait_minutes = excluded.wait_minutes, wait_until = excluded.wait_until, routed_seq = excluded.routed_seq,
          routed_ts = excluded.routed_ts, referral = NULL, crew_answer = NULL, ended_reason = NULL, ended_seq = NULL, ended_ts = NULL`),
      crewAnswered: p(`UPDATE ${schema}.questions SET crew_answer = ? WHERE artifact_id = ?`),
      moved: p(`UPDATE ${schema}.questions SET route = @route, reason = @reason, crew = NULL, wait_minutes = @wait_minutes,
        wait_until = @wait_until, referral = @referral WHERE artifact_id = @artifact_id`),
      ended: p(`UPDATE ${schema}.questions SET ended_reason = ?, ended_seq = ?, ended_ts = ? WHERE artifact_id = ? AND ended_reason IS NULL`),
      answer: p(`INSERT OR IGNORE INTO ${schema}.answers (artifact_id, question, writer, writer_kind, replaces, cancels, refer, seq)
        VALUES (@artifact_id, @question, @writer, @writer_kind, @replaces, @cancels, @refer, @seq)`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'questions'>>): void {
    const d = event.data;
    switch (event.type) {
      case 'ingest': {
        const answer = event.data.answer as Record<string, unknown> | undefined;
        if (answer === undefined) return;
        this.s.answer!.run({
          artifact_id: event.data.artifact_id,
          question: answer['question'],
          writer: event.by,
          writer_kind: event.data.writer_kind,
          replaces: str(answer, 'replaces'),
          cancels: str(answer, 'cancels'),
          refer: answer['refer'] === true ? 1 : 0,
          seq: event.seq,
        });
        return;
      }
      case 'question-routed': {
        const minutes = typeof event.data.wait_minutes === 'number' ? event.data.wait_minutes : null;
        this.s.routed!.run({
          artifact_id: event.data.artifact_id,
          space: event.data.space,
          route: event.data.route,
          reason: str(d, 'reason'),
          crew: str(d, 'crew'),
          wait_minutes: minutes,
          wait_until: waitUntil(event.ts, minutes),
          seq: event.seq,
          ts: event.ts,
        });
        return;
      }
      case 'question-wait-over': {
        // The wait of the route ended: the question ends, or (a crew's wait) it moves on to people with a wait of its own.
        if (event.data.to === 'ended') {
          this.s.ended!.run('wait_over', event.seq, event.ts, event.data.artifact_id);
          return;
        }
        const minutes = typeof event.data.wait_minutes === 'number' ? event.data.wait_minutes : null;
        this.s.moved!.run({ artifact_id: event.data.artifact_id, route: event.data.to, reason: 'wait_over', wait_minutes: minutes, wait_until: waitUntil(event.ts, minutes), referral: null });
        return;
      }
      case 'question-referred': {
        const minutes = typeof event.data.wait_minutes === 'number' ? event.data.wait_minutes : null;
        this.s.moved!.run({
          artifact_id: event.data.artifact_id,
          route: 'with_people',
          reason: 'referred',
          wait_minutes: minutes,
          wait_until: waitUntil(event.ts, minutes),
          referral: event.data.referral === undefined ? null : JSON.stringify(event.data.referral),
        });
        return;
      }
      case 'question-answered-by-crew':
        this.s.crewAnswered!.run(event.data.answer, event.data.artifact_id);
        return;
      case 'question-ended':
        this.s.ended!.run(str(d, 'reason') ?? 'cancelled', event.seq, event.ts, event.data.artifact_id);
        return;
    }
  }
}

/** The questions view: questions and their answers. */
export const questionView = defineView({
  name: 'questions',
  tables: questionTables,
  digest: questionDigestQueries,
  reducer: (db, schema) => new QuestionReducer(db, schema),
  reads: {
    questions: ({ db }) => new QuestionReads(db),
  },
});
