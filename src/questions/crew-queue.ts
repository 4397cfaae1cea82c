import type { ArtifactRow } from '../projections/artifact-reads.js';
import { questionStanding } from './question-state.js';
import type { Store } from '../store/store.js';
import type { CrewsPart } from '../crews/crews-part.js';

/**
 * The questions with a crew that it has still to answer or refer, oldest promotion first:
 * routed to it, still with it, and without a standing answer or referral by any of its
 * member keys (one waiting for review is the crew's word given).
 */
export function crewQueue(house: { readonly store: Store; readonly crews: CrewsPart }, crew: string, now: number): ArtifactRow[] {
  const members = house.crews.runners.everyMember(crew);
  return house.store.questions
    .routedTo('with_crew')
    .filter((r) => r.crew === crew)
    .map((r) => house.store.artifacts.byId(r.artifact_id))
    .filter((row): row is ArtifactRow => {
      if (row === undefined) return false;
      const standing = questionStanding(house, row, now);
      return standing.state === 'with_crew' && standing.answers.standingOfAny(members).length === 0;
    })
    .sort((a, b) => (a.promoted_seq ?? 0) - (b.promoted_seq ?? 0));
}

export const ASKED_SHOWN = 50;

/** Questions the crew's member keys asked, newest first, at most ASKED_SHOWN (and whether more exist), with the slot that asked. */
export function crewAsked(house: { readonly store: Store }, crew: string): { rows: Array<{ row: ArtifactRow; slot: string }>; truncated: boolean } {
  const found = house.store.questions.askedByCrew(crew, ASKED_SHOWN + 1);
  return { rows: found.slice(0, ASKED_SHOWN).map(({ member_slot, ...row }) => ({ row, slot: member_slot })), truncated: found.length > ASKED_SHOWN };
}
