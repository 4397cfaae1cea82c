import { derivesFromOf, type ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';
import type { CrewsPart } from '../crews/crews-part.js';

/**
 * Inside the promotion's write: an answer a member key of the crew holding its question
 * wrote, now served, answers the question for the crew (`question-answered-by-crew`). A
 * referral is no answer, and an answer promoted after the question left the crew is an
 * answer like any other, served without moving the question.
 */
export function noteCrewAnswer(house: { readonly store: Store; readonly crews: CrewsPart }, answer: ArtifactRow): void {
  const questionId = derivesFromOf(answer)[0];
  if (questionId === undefined) return;
  const reads = house.store.questions;
  const routing = reads.routing(questionId);
  if (routing === undefined || routing.route !== 'with_crew' || routing.crew === null || routing.crew_answer !== null) return;
  const row = reads.answers(questionId).find((a) => a.artifact_id === answer.artifact_id);
  if (row === undefined || row.refer === 1 || row.cancels !== null || !house.crews.runners.everyMember(routing.crew).has(row.writer)) return;
  const question = house.store.artifacts.byId(questionId)!;
  house.store.journal.append('question-answered-by-crew', null, {
    artifact_id: question.artifact_id,
    space: question.space,
    workarea: question.workarea,
    crew: routing.crew,
    answer: answer.artifact_id,
  });
}
