import type { ArtifactRow } from '../projections/artifact-reads.js';
import { appendPromotion, pendingGroupChild } from './promotion.js';
import type { Store } from '../store/store.js';
import type { ReviewPart } from './review-part.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { GateConfig } from '../config/keys.js';

export type Settled = 'ACTIVE' | 'L3_RATIFIED' | null;

/**
 * Inside the writer's transaction: an auto-reviewed row that meets k with no person
 * required, no model's rejection a person has not answered, no open objection by the
 * operator, nothing it contradicts and the operator not away, is promoted with the
 * deployment signing.
 */
export function settleRow(house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig }, id: string): Settled {
  const row = house.store.artifacts.byId(id);
  if (row === undefined || row.state !== 'L2_SCORED') return null;
  if (house.review.board.modeOf(row.space) !== 'auto' || pendingGroupChild(house, id) !== null) return null;
  // A crew sheet is checked against its runner and its promoter's role: only gv.promote serves one.
  if (house.crews.sheets.sheetOf(row) !== null) return null;
  const p = house.review.board.picture(row);
  // A model's rejection holds it until a person's approval answers it (promotionProblem says so too).
  if (p.operatorObjections > 0) return null;
  if (house.review.board.promotionProblem(p, 'deployment') !== null) return null;
  return appendPromotion(house, p, null, 'deployment').enters;
}

/** Rows of auto spaces waiting in L2_SCORED, oldest first. */
function settleCandidates(house: { readonly store: Store }, limit: number): ArtifactRow[] {
  return house.store.reviews.settleCandidates(limit);
}

/** gv.settle_pending and the schedule: settles what it can; what stays held is counted by blocker. */
export async function settlePending(house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig }, limit: number) {
  const rows = settleCandidates(house, limit);
  const outcome = await house.store.writer.write(() => rows.map((r) => ({ id: r.artifact_id, enters: settleRow(house, r.artifact_id) })));
  const held: Record<string, number> = {};
  for (const o of outcome.filter((x) => x.enters === null)) {
    const row = house.store.artifacts.byId(o.id)!;
    const blocker = house.review.board.picture(row).waitsFor?.blocker ?? row.state;
    held[blocker] = (held[blocker] ?? 0) + 1;
  }
  const promoted = outcome.filter((o) => o.enters === 'ACTIVE').map((o) => o.id);
  const ratified = outcome.filter((o) => o.enters === 'L3_RATIFIED').map((o) => o.id);
  return { examined: rows.length, promoted: promoted.length, ratified: ratified.length, artifact_ids: [...promoted, ...ratified].slice(0, 100), held };
}
