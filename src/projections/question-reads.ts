import type Database from 'better-sqlite3';
import type { ArtifactRow } from './artifact-reads.js';

/** A question's routing as the questions view holds it. */
export interface QuestionRouting {
  artifact_id: string;
  space: string;
  route: string;
  reason: string | null;
  crew: string | null;
  wait_minutes: number | null;
  wait_until: number | null;
  routed_seq: number;
  routed_ts: number;
  /** A crew's referral (JSON), served to people alone. */
  referral: string | null;
  /** The crew's answer promoted for it (question-answered-by-crew), or null. */
  crew_answer: string | null;
  ended_reason: string | null;
  ended_seq: number | null;
  ended_ts: number | null;
}

/** An answer/1 row with the state and place of its artifact. */
export interface AnswerRow {
  artifact_id: string;
  question: string;
  writer: string;
  writer_kind: string;
  replaces: string | null;
  cancels: string | null;
  /** 1 for a crew's referral: it stands like an answer, and is never served as one. */
  refer: number;
  seq: number;
  state: string;
  space: string;
  content_hash: string;
  masked_hash: string | null;
  erased_seq: number | null;
  promoted_seq: number | null;
  promoted_ts: number | null;
  findings_count: number;
}

/**
 * No served person's answer that its writer has not withdrawn: the SQL side of "answered"
 * (src/questions/question-state.ts decides it exactly), so lists of open questions and the
 * wait sweep read past answered ones without loading them.
 */
const NOT_ANSWERED_BY_A_PERSON = `NOT EXISTS (SELECT 1 FROM answers a JOIN artifacts ar ON ar.artifact_id = a.artifact_id
  WHERE a.question = q.artifact_id AND a.writer_kind = 'person' AND a.cancels IS NULL AND ar.state = 'ACTIVE'
    AND NOT EXISTS (SELECT 1 FROM answers c WHERE c.cancels = a.artifact_id AND c.writer = a.writer))`;

/** Prepared reads of the questions and answers views. */
export class QuestionReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      routing: p('SELECT * FROM questions WHERE artifact_id = ?'),
      answers: p(`SELECT a.*, r.state, r.space, r.content_hash, r.masked_hash, r.erased_seq, r.promoted_seq, r.promoted_ts, r.findings_count
        FROM answers a JOIN artifacts r USING (artifact_id) WHERE a.question = ? ORDER BY a.seq`),
      // Served, not ended, not answered by a person: an answered question never waits over, so it
      // must not fill the sweep's page either.
      waitOver: p(`SELECT q.* FROM questions q JOIN artifacts r USING (artifact_id)
        WHERE q.route = ? AND q.ended_reason IS NULL AND q.wait_until IS NOT NULL AND q.wait_until <= ? AND r.state = 'ACTIVE'
          AND ${NOT_ANSWERED_BY_A_PERSON} ORDER BY q.wait_until LIMIT ?`),
      routedTo: p(`SELECT q.* FROM questions q JOIN artifacts r USING (artifact_id)
        WHERE q.route = ? AND q.ended_reason IS NULL AND r.state = 'ACTIVE' AND ${NOT_ANSWERED_BY_A_PERSON} ORDER BY q.routed_seq`),
      askedByCrew: p(
        `SELECT a.*, m.slot AS member_slot FROM artifacts a JOIN runner_member_keys m ON a.writer_identity = 'key:' || m.key_id
       WHERE m.space = ? AND a.kind = 'question' ORDER BY a.rowid DESC LIMIT ?`,
      ),
    };
  }

  routing(questionId: string): QuestionRouting | undefined {
    return this.s.routing!.get(questionId) as QuestionRouting | undefined;
  }

  /** Every answer/1 row naming the question first, oldest first. */
  answers(questionId: string): AnswerRow[] {
    return this.s.answers!.all(questionId) as AnswerRow[];
  }

  /** Served questions on `route` whose wait ended by `now`, neither ended nor answered by a person, the longest overdue first. */
  waitOver(route: string, now: number, limit: number): QuestionRouting[] {
    return this.s.waitOver!.all(route, now, limit) as QuestionRouting[];
  }

  /** Served questions on a route, neither ended nor answered by a person, oldest routing first. */
  routedTo(route: string): QuestionRouting[] {
    return this.s.routedTo!.all(route) as QuestionRouting[];
  }

  /** Questions a crew's member keys asked, newest first, at most `limit`, each with the member slot that asked. */
  askedByCrew(crew: string, limit: number): Array<ArtifactRow & { member_slot: string }> {
    return this.s.askedByCrew!.all(crew, limit) as Array<ArtifactRow & { member_slot: string }>;
  }
}
