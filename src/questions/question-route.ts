import type { Gate } from '../gate.js';
import type { JournalEvent } from '../journal/event.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';

/** Where a promoted question goes (spec 1 "Question routing state"); `question-routed` carries it. */
export type QuestionRoute =
  | { route: 'with_people'; reason: 'no_crew'; wait_minutes: number }
  | { route: 'with_crew'; crew: string; wait_minutes: number };

/**
 * Decides the route of a question at its promotion. This build has no crews, so every
 * question goes to people with reason `no_crew`, waiting `questions.people_wait_minutes`.
 *
 * THE SEAM FOR CREWS (issue 19, crews and runners): look up the crew configured for
 * `question.space` here and, when one is, answer `{route: 'with_crew', crew, wait_minutes}`.
 * Everything downstream already reads the route from the event: the questions view keeps
 * crew and wait, questionStanding answers `with_crew` with minutes left, and a crew's wait
 * running out is one `question-wait-over` event `{from: 'with_crew', to: 'with_people',
 * wait_minutes}` (the view then routes it to people, reason `wait_over`). Answers by the
 * crew are checked where gv.ingest calls checkAnswer (src/questions/answer-rules.ts).
 */
export function decideRoute(gate: Gate, question: ArtifactRow): QuestionRoute {
  return { route: 'with_people', reason: 'no_crew', wait_minutes: gate.config.questions.people_wait_minutes };
}

/** Journals the route of a question being promoted, inside the promotion's write; the deployment signs it. */
export function routeQuestion(gate: Gate, question: ArtifactRow): JournalEvent {
  const route = decideRoute(gate, question);
  return gate.journal.append('question-routed', null, {
    artifact_id: question.artifact_id,
    space: question.space,
    workarea: question.workarea,
    ...route,
  });
}
