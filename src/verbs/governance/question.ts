import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import type { AnswerRow } from '../../projections/question-reads.js';
import { markedWith } from '../../projections/finding-marks.js';
import { questionStanding } from '../../questions/question-state.js';
import { answerBody } from '../../domain/body-forms.js';
import type { House } from '../house.js';
import { scannerFindingsAnswer } from '../answer-types.js';

/** A crew's referral as a person reads it: the referral row, the crew and slot that gave it, and its words. */
function referralOf(house: Pick<House, 'store'>, referral: string | null) {
  if (referral === null) return null;
  const said = JSON.parse(referral) as { artifact_id: string; crew: string; slot: string };
  const row = house.store.artifacts.byId(said.artifact_id);
  const text = row === undefined ? null : house.store.artifacts.servedBody(row);
  let words: string | null = null;
  try {
    words = text === null ? null : (answerBody.safeParse(JSON.parse(text)).data?.answer ?? null);
  } catch {
    // Bytes that are no longer the answer/1 they were (erased): the words are gone, the referral stays.
  }
  return { ...said, words };
}

/** An answer to the question as it is served: its words, and what the scanner found in them when a person promoted it over findings. */
const questionAnswerAnswer = z.object({
  artifact_id: z.string(),
  body: z.string().nullable(),
  space: z.string(),
  promoted_at: z.number().int().nullable(),
  scanner_findings: scannerFindingsAnswer,
});

const questionAnswer = z.object({
  referral: z
    .object({
      artifact_id: z.string().optional().describe("the crew's answer/1 row that referred it"),
      crew: z.string().optional(),
      slot: z.string().optional(),
      words: z.string().nullable().describe("the referral's words; null once its row is erased"),
    })
    .catchall(z.unknown())
    .nullable()
    .optional()
    .describe('to a person only: the referral as the question-referred event holds it, and its words; null until a crew refers the question'),
  question: z.string(),
  state: z.enum(['held', 'with_crew', 'with_people', 'answered', 'ended']),
  reason: z.string().nullable(),
  crew: z.string().nullable(),
  wait_minutes: z.number().int().nullable(),
  minutes_left: z.number().int().nullable(),
  answers: z.array(questionAnswerAnswer),
  person_answer: questionAnswerAnswer.nullable(),
});

export const questionVerb = defineVerb({
  name: 'gv.question',
  role: 'reader',
  summary: "A question's routing state, its wait, the answers served for it and a person's answer; referral only to a person.",
  params: z.strictObject({ question: artifactIdParam }),
  answer: questionAnswer,
  uses: ['store', 'access', 'clock'],
  handler({ caller, store, access, clock }, p) {
    const row = access.readableArtifact(caller, p.question);
    if (row.kind !== 'question') throw invalidParams('not a question: gv.question reads a row of kind question', { field: 'question' });
    const standing = questionStanding({ store }, row, clock.now());
    // Only answers this caller may read: a served answer in a space it cannot read is not told.
    const readable = (a: AnswerRow) => access.visibility.canRead(caller, { artifact_id: a.artifact_id, state: a.state, space: a.space, writer_identity: a.writer });
    const shown = (a: AnswerRow) => ({
      artifact_id: a.artifact_id,
      body: store.artifacts.servedBody(a),
      space: a.space,
      promoted_at: a.promoted_ts,
      // An answer promoted over the scanner's findings says so beside its words.
      ...markedWith(store.artifacts.findingMarks(a)),
    });
    const personAnswer = standing.answers.personAnswer();
    return {
      question: row.artifact_id,
      state: standing.state,
      reason: standing.reason,
      crew: standing.crew,
      wait_minutes: standing.wait_minutes,
      minutes_left: standing.minutes_left,
      answers: standing.answers.served().filter(readable).map(shown),
      person_answer: personAnswer !== undefined && readable(personAnswer) ? shown(personAnswer) : null,
      // A crew's referral is for people alone (docs/protocol.md#gvquestion); null until a crew refers the question.
      ...(caller.kind === 'person' ? { referral: referralOf({ store }, standing.routing?.referral ?? null) } : {}),
    };
  },
});
