import type { JournalEvent } from '../forms/event.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { GateConfig } from '../config/keys.js';
import type { Store } from '../store/store.js';

/** Where a promoted question goes (docs/protocol.md#other-state-words); `question-routed` carries it. */
export type QuestionRoute =
  | { route: 'with_people'; reason: 'no_crew' | 'crew_gone'; wait_minutes: number }
  | { route: 'with_crew'; crew: string; wait_minutes: number };

/**
 * Decides the route of a question at its promotion: to the crew that answers questions of
 * its space (the space's served crew sheet names it in `answering`, or is that crew) when
 * a runner hosts that crew and was heard within `runners.gone_seconds`, for the sheet's
 * `wait_minutes` (else `runners.wait_minutes`); to people otherwise: `no_crew` when no
 * crew answers for the space or none is assigned a runner, `crew_gone` when its runner is
 * silent. Everything downstream reads the route from the event: the questions view keeps
 * crew and wait, questionStanding answers `with_crew` with minutes left, and a crew's wait
 * running out, its runner falling silent, or its referral move it on to people
 * (src/questions/crew-moves.ts, and gv.ingest for a referral).
 */
export function decideRoute(house: { readonly crews: CrewsPart; readonly config: GateConfig }, question: ArtifactRow): QuestionRoute {
  const people = house.config.questions.people_wait_minutes;
  const crew = house.crews.sheets.answeringCrew(question.space);
  const assignment = crew === null ? undefined : house.crews.runners.assignment(crew);
  if (crew === null || assignment === undefined) return { route: 'with_people', reason: 'no_crew', wait_minutes: people };
  if (!house.crews.runners.heard(assignment.runner)) return { route: 'with_people', reason: 'crew_gone', wait_minutes: people };
  const sheet = house.crews.sheets.servedSheet(crew)?.sheet;
  return { route: 'with_crew', crew, wait_minutes: sheet?.wait_minutes ?? house.config.runners.wait_minutes };
}

/** Journals the route of a question being promoted, inside the promotion's write; the deployment signs it. */
export function routeQuestion(house: { readonly store: Store; readonly crews: CrewsPart; readonly config: GateConfig }, question: ArtifactRow): JournalEvent {
  const route = decideRoute(house, question);
  return house.store.journal.append('question-routed', null, {
    artifact_id: question.artifact_id,
    space: question.space,
    workarea: question.workarea,
    ...route,
  });
}
