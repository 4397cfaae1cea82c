import { reasonOf } from '../projections/row-metadata.js';
import { atLeast } from '../domain/roles.js';
import { canonicalJson, sha256Hex } from '../forms/canonical-json.js';
import type { AccessPart } from '../access/access-part.js';
import type { Caller } from '../access/caller.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';
import type { ReviewPicture } from './review-board.js';
import type { ReviewPart } from './review-part.js';
import { approvalSignable, vetoSignable } from './signable.js';

/** Whether a signature is the one its signer stands on now: its newest, or a model's newest for its stance. */
function standing(p: ReviewPicture, i: number): boolean {
  const s = p.current[i]!;
  return !p.current.slice(i + 1).some((later) => later.signer === s.signer && (s.class !== 'model' || later.stance === s.stance));
}

/** gv.approval's answer (also gv.node's approval): every field docs/protocol.md#gvapproval lists. */
export function approvalOf(house: { readonly store: Store; readonly access: AccessPart; readonly review: ReviewPart }, caller: Caller, row: ArtifactRow) {
  const p = house.review.board.picture(row);
  const counts = new Map(p.count.signers.map((s) => [s.signer, s]));
  const person = caller.kind === 'person' && atLeast(caller.role, 'reviewer') && caller.identity !== row.writer_identity;
  const counted = p.count.signers.filter((s) => s.counts);
  const veto = p.status === 'vetoed' ? [...p.signatures].reverse().find((s) => s.class === 'human' && s.decision === 'reject') : undefined;
  const answer = {
    artifact_id: row.artifact_id,
    state: row.state,
    status: p.status,
    reason: p.waitsFor?.blocker ?? reasonOf(row),
    ...(p.waitsFor === null ? {} : { waits_for: p.waitsFor }),
    mode: p.mode,
    quorum_profile: house.review.board.settings.profileName,
    k_required: p.count.k_required,
    k_have: p.count.k_have,
    people_required: p.count.people_required,
    people_have: p.count.people_have,
    signers: p.current.map((s, i) => {
      const c = counts.get(s.signer);
      const counts_toward_k = c?.counts === true && standing(p, i);
      return {
        identity: s.signer,
        class: s.class,
        decision: s.decision,
        ...(s.stance === null ? {} : { stance: s.stance }),
        counts: counts_toward_k,
        ...(c?.why === undefined || counts_toward_k ? {} : { why: c.why }),
        event_id: s.event_id,
        ts: s.ts,
      };
    }),
    approved_by: {
      model: counted.filter((s) => s.class === 'model').length,
      human: counted.filter((s) => s.class === 'human').length,
      // An authority's countersign is counted apart from k (review/quorum.ts), so it is read from the signatures.
      authority: new Set(p.current.filter((s) => s.class === 'authority' && s.decision === 'countersign').map((s) => s.signer)).size,
    },
    model_labels: [...new Set(p.current.filter((s) => s.class === 'model').map((s) => s.signer))],
    provisional: row.provisional === 1,
    human_veto_available: person && vetoSignable(row.state),
    human_sign_available: person && approvalSignable(row.state, p.review),
    decisions: p.signatures.map((s) => ({
      type: s.type,
      by: s.signer,
      class: s.class,
      decision: s.decision,
      ...(s.category === null ? {} : { category: s.category }),
      epoch: s.epoch,
      event_id: s.event_id,
      ts: s.ts,
    })),
    ...(veto === undefined ? {} : { veto: { by: veto.signer, event_id: veto.event_id, ts: veto.ts } }),
    open_objections: p.objections.length,
  };
  const revision = house.access.visibility.seesEverything(caller)
    ? `seq:${house.store.journalReads.lastSeqOf(row.artifact_id)}`
    : sha256Hex(canonicalJson(answer));
  return { ...answer, revision };
}
