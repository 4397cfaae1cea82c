import type { Gate } from '../gate.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { appendPromotion, pendingGroupChild } from './promotion.js';

export type Settled = 'ACTIVE' | 'L3_RATIFIED' | null;

/**
 * Inside the writer's transaction: an auto-reviewed row that meets k with no person
 * required, no model rejecting it, no open objection by the operator, nothing it
 * contradicts and the operator not away, is promoted with the deployment signing.
 */
export function settleRow(gate: Gate, id: string): Settled {
  const row = gate.store.artifacts.byId(id);
  if (row === undefined || row.state !== 'L2_SCORED') return null;
  if (gate.review.board.modeOf(row.space) !== 'auto' || pendingGroupChild(gate, id) !== null) return null;
  // A crew sheet is checked against its runner and its promoter's role: only gv.promote serves one.
  if (gate.crews.sheets.sheetOf(row) !== null) return null;
  const p = gate.review.board.picture(row);
  if (p.operatorObjections > 0 || p.count.model_rejects.length > 0) return null;
  if (gate.review.board.promotionProblem(p, 'deployment') !== null) return null;
  return appendPromotion(gate, p, null, 'deployment').enters;
}

/** Rows of auto spaces waiting in L2_SCORED, oldest first. */
function settleCandidates(gate: Gate, limit: number): ArtifactRow[] {
  return gate.store.reviews.settleCandidates(limit);
}

/** gv.settle_pending and the schedule: settles what it can; what stays held is counted by blocker. */
export async function settlePending(gate: Gate, limit: number) {
  const rows = settleCandidates(gate, limit);
  const outcome = await gate.store.writer.write(() => rows.map((r) => ({ id: r.artifact_id, enters: settleRow(gate, r.artifact_id) })));
  const held: Record<string, number> = {};
  for (const o of outcome.filter((x) => x.enters === null)) {
    const row = gate.store.artifacts.byId(o.id)!;
    const blocker = gate.review.board.picture(row).waitsFor?.blocker ?? row.state;
    held[blocker] = (held[blocker] ?? 0) + 1;
  }
  const promoted = outcome.filter((o) => o.enters === 'ACTIVE').map((o) => o.id);
  const ratified = outcome.filter((o) => o.enters === 'L3_RATIFIED').map((o) => o.id);
  return { examined: rows.length, promoted: promoted.length, ratified: ratified.length, artifact_ids: [...promoted, ...ratified].slice(0, 100), held };
}
