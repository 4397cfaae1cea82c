import type { AnswerRow } from '../projections/question-reads.js';

/** States from which an answer row no longer speaks: turned down, taken back by review, or filed away. */
const GONE = new Set(['REJECTED', 'DEMOTED', 'ARCHIVED']);
const isLive = (a: AnswerRow) => !GONE.has(a.state);

/**
 * What one question's answer/1 rows say of one another (README "Questions"). A row with
 * `cancels` is a withdrawal, never an answer, and so is a crew's referral (`refer`), though it
 * stands like one for its crew's one-standing rule: naming the answerer's own answer it withdraws
 * it from its ingest on; naming the question (its asker alone may) it ends the question. A
 * row with `replaces` takes the place of the answerer's own answer it names, while it is live.
 */
export class AnswerStanding {
  private readonly withdrawn = new Set<string>();

  constructor(private readonly rows: AnswerRow[]) {
    for (const r of rows) {
      if (r.cancels === null) continue;
      const named = rows.find((x) => x.artifact_id === r.cancels && x.writer === r.writer);
      if (named !== undefined) this.withdrawn.add(named.artifact_id);
    }
  }

  private replacedBy(a: AnswerRow, by: (r: AnswerRow) => boolean): boolean {
    return this.rows.some((r) => r.replaces === a.artifact_id && r.writer === a.writer && by(r));
  }

  /** A row that is not a withdrawal and was not withdrawn: an answer, or a crew's referral. */
  private stands(a: AnswerRow): boolean {
    return a.cancels === null && !this.withdrawn.has(a.artifact_id);
  }

  private speaks(a: AnswerRow): boolean {
    return this.stands(a) && a.refer === 0;
  }

  /** The writer's answers (or a crew's referral) that stand, held or served: at most one, by the rule that refuses a second. */
  standingOf(writer: string): AnswerRow[] {
    return this.standingOfAny(new Set([writer]));
  }

  /** The same for several writers answering as one: a crew's member keys. */
  standingOfAny(writers: ReadonlySet<string>): AnswerRow[] {
    return this.rows.filter((a) => writers.has(a.writer) && this.stands(a) && isLive(a) && !this.replacedBy(a, isLive));
  }

  /** Answers served as the question's: ACTIVE, not withdrawn, not replaced by an ACTIVE row; first promoted first. */
  served(): AnswerRow[] {
    const active = (r: AnswerRow) => r.state === 'ACTIVE';
    return this.rows
      .filter((a) => this.speaks(a) && active(a) && !this.replacedBy(a, active))
      .sort((x, y) => (x.promoted_seq ?? 0) - (y.promoted_seq ?? 0));
  }

  /** The first served answer a signed-in person wrote: it makes the question answered. */
  personAnswer(): AnswerRow | undefined {
    return this.served().find((a) => a.writer_kind === 'person');
  }
}
