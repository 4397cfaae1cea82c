import type { JournalEvent } from '../forms/event.js';
import { rowEventData } from '../projections/row-event.js';
import { routeQuestion } from '../questions/question-route.js';
import { noteCrewAnswer } from '../questions/crew-answer.js';
import type { ReviewPicture } from './review-board.js';
import type { SignerClass } from '../domain/signer-class.js';
import type { Store } from '../store/store.js';
import type { ReviewPart } from './review-part.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { GateConfig } from '../config/keys.js';

/** A pending replacement group that names the row (as parent or child, or in the one role asked), if any. */
export function pendingGroupNaming(house: { readonly store: Store }, artifactId: string, role?: 'parent' | 'child'): string | null {
  return house.store.replacementGroups.naming(artifactId).find((g) => g.state === 'PENDING' && (role === undefined || g.member_role === role))?.group_id ?? null;
}

/** A pending replacement group the row is a child of: such a child is promoted only by its group's activation. */
export function pendingGroupChild(house: { readonly store: Store }, artifactId: string): string | null {
  return pendingGroupNaming(house, artifactId, 'child');
}

/** Where a met quorum takes the row: T-3 and T-5 wait ratified for a countersign, the rest are served. */
export function promotionEnters(p: ReviewPicture): 'ACTIVE' | 'L3_RATIFIED' {
  return p.rule.countersign ? 'L3_RATIFIED' : 'ACTIVE';
}

/**
 * Appends the move a met quorum makes (inside the writer's transaction): T-3 and T-5 are
 * ratified and wait for a second authority's countersign; every other class is promoted,
 * provisional until a countersign (a solo gate has no second authority of its own).
 */
export function appendPromotion(house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig }, p: ReviewPicture, by: string | null, cls: SignerClass): { event: JournalEvent; enters: 'ACTIVE' | 'L3_RATIFIED' } {
  const own = {
    signer_class: cls,
    quorum_profile: house.review.board.settings.profileName,
    k_required: p.count.k_required,
    k_have: p.count.k_have,
  };
  if (promotionEnters(p) === 'L3_RATIFIED') {
    return { event: house.store.journal.append('ratify', by, rowEventData(p.row, 'L3_RATIFIED', own)), enters: 'L3_RATIFIED' };
  }
  const event = house.store.journal.append('promote', by, rowEventData(p.row, 'ACTIVE', { ...own, provisional: true }));
  // A question is routed as it is promoted, in the same write: it is never served unrouted.
  if (p.row.kind === 'question') routeQuestion(house, p.row);
  if (p.row.kind === 'answer') noteCrewAnswer(house, p.row);
  return { event, enters: 'ACTIVE' };
}
