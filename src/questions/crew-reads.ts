import type { Caller } from '../access/caller.js';
import { isPromoted } from '../domain/states.js';
import { derivesFromOf, type ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';
import type { CrewsPart } from '../crews/crews-part.js';

/**
 * What a routed question lets its crew read beyond its own grants (docs/protocol.md#gvingest, the answer
 * rules' crew exceptions): the question, the claims it cites, and its charter rows (the
 * served crew sheet of the question's space, which sends its questions to this crew), each
 * while it is served. Nothing held and nothing else.
 */
export function crewReadable(house: { readonly store: Store; readonly crews: CrewsPart }, question: ArtifactRow): ArtifactRow[] {
  const charter = house.crews.sheets.servedSheet(question.space)?.row;
  const cited = derivesFromOf(question).map((id) => house.store.artifacts.byId(id));
  return [question, ...cited, ...(charter === undefined ? [] : [charter])].filter(
    (row): row is ArtifactRow => row !== undefined && isPromoted(row.state),
  );
}

/**
 * A parent a member key may cite in its crew's answer to `questionId` though its grants do
 * not reach it, or undefined: the question must be with the caller's crew right now.
 */
export function crewCitable(house: { readonly store: Store; readonly crews: CrewsPart }, caller: Caller, questionId: string, id: string): ArtifactRow | undefined {
  const member = house.crews.runners.crewOf(caller.identity);
  if (member === null) return undefined;
  const routing = house.store.questions.routing(questionId);
  if (routing === undefined || routing.route !== 'with_crew' || routing.crew !== member.space) return undefined;
  const question = house.store.artifacts.byId(questionId);
  if (question === undefined) return undefined;
  return crewReadable(house, question).find((row) => row.artifact_id === id);
}
