import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { QuestionRouting } from '../projections/question-reads.js';
import { QUARANTINE_STATES, type ArtifactState } from '../domain/states.js';
import { AnswerStanding } from './answer-standing.js';
import type { Store } from '../store/store.js';

export const QUESTION_STATES = ['held', 'with_crew', 'with_people', 'answered', 'ended'] as const;
export type QuestionState = (typeof QUESTION_STATES)[number];

export interface QuestionStanding {
  state: QuestionState;
  /** with_people: no_crew, wait_over, crew_gone or referred; ended: cancelled, wait_over or not_served; else null. */
  reason: string | null;
  crew: string | null;
  wait_minutes: number | null;
  minutes_left: number | null;
  routing: QuestionRouting | undefined;
  answers: AnswerStanding;
}

const MINUTE_MS = 60_000;

/**
 * A question's routing state (docs/protocol.md#other-state-words), read at `now` from its row,
 * its routing and its answers: held until promoted; ended when its asker ended it, its wait
 * ran out, or it is no longer served; answered once a person's answer is served; else where
 * its route put it. A question promoted before routing existed has no route event: it is
 * with people, no_crew, and waits for no time.
 */
export function questionStanding(house: { readonly store: Store }, row: ArtifactRow, now: number): QuestionStanding {
  const reads = house.store.questions;
  const routing = reads.routing(row.artifact_id);
  const answers = new AnswerStanding(reads.answers(row.artifact_id));
  const standing = (state: QuestionState, reason: string | null = null): QuestionStanding => ({
    state,
    reason,
    crew: null,
    wait_minutes: null,
    minutes_left: null,
    routing,
    answers,
  });
  if (QUARANTINE_STATES.has(row.state as ArtifactState)) return standing('held');
  if (row.state !== 'ACTIVE') return standing('ended', 'not_served');
  if (routing?.ended_reason != null) return standing('ended', routing.ended_reason);
  if (answers.personAnswer() !== undefined) return standing('answered');
  // A crew's answer answers the question once it is served (question-answered-by-crew names it).
  const crewAnswer = routing?.crew_answer ?? null;
  if (crewAnswer !== null && answers.served().some((a) => a.artifact_id === crewAnswer)) return standing('answered');
  if (routing === undefined) return standing('with_people', 'no_crew');
  return {
    ...standing(routing.route as QuestionState, routing.reason),
    crew: routing.crew,
    wait_minutes: routing.wait_minutes === 0 ? null : routing.wait_minutes,
    minutes_left: routing.wait_until === null ? null : Math.max(0, Math.ceil((routing.wait_until - now) / MINUTE_MS)),
  };
}
