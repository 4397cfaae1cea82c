import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';
import type { Deployment } from '../journal/deployment.js';
import { RETRACTION_CONTRACT, RETRACTION_SIGNING_PREFIX, type Retraction } from '../forms/retraction-contract.js';
import { canonicalJson, sha256Hex } from '../forms/canonical-json.js';

/**
 * The body of PUT /retractions/{artifact_id} for an erased row (docs/organization.md "Erasure
 * at a member"): the row, its content hash and its erasure event's id and time, signed with
 * the deployment key. The erasure event itself stays here: its reason is the operator's words.
 */
export function buildRetraction(house: { readonly store: Store; readonly deployment: Deployment }, row: ArtifactRow) {
  const erasure = house.store.journalReads.stampAt(row.erased_seq!);
  const retraction: Retraction = {
    contract: RETRACTION_CONTRACT,
    artifact_id: row.artifact_id,
    deployment_id: house.deployment.deploymentId,
    content_hash: row.content_hash,
    erasure_event_id: erasure.event_id,
    erased_ts: erasure.ts,
    ...(house.deployment.signingKeys.rotated ? { key_rotations: house.store.deploymentKeys.rotations() } : {}),
  };
  const canonical = canonicalJson(retraction);
  return { retraction, id: `sha256:${sha256Hex(canonical)}`, sig: house.deployment.key.sign(RETRACTION_SIGNING_PREFIX + canonical) };
}
