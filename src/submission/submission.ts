import { canonicalJson, sha256Hex } from '../forms/canonical-json.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { DECISIONS, envelopeOf } from '../projections/row-envelope.js';
import { signedHistory } from '../events/signed-history.js';
import { approvalOf } from '../review/approval-answer.js';
import type { Caller } from '../access/caller.js';
import { SUBMISSION_CONTRACT, SUBMISSION_SIGNING_PREFIX } from '../forms/submission-contract.js';
import type { Store } from '../store/store.js';
import type { Deployment } from '../journal/deployment.js';
import type { AccessPart } from '../access/access-part.js';
import type { ReviewPart } from '../review/review-part.js';


/** The local signed promotion(s) of a row: each promote (or ratify, for a T-3/T-5 row) event exactly as journaled, with its signature. */
export function promotionsOf(house: { readonly store: Store }, artifactId: string) {
  const rows = house.store.journalReads.promotionsOf(artifactId);
  return rows.map((r) => ({ event_id: r.event_id, event: r.body, sig: r.sig }));
}

/** The row's ingest event exactly as journaled, with its signature: it ties the artifact id to the content hash for the org. */
export function ingestOf(house: { readonly store: Store }, artifactId: string) {
  const r = house.store.journalReads.firstIngestOf(artifactId);
  return r === undefined ? null : { event_id: r.event_id, event: r.body, sig: r.sig };
}

/**
 * Who the approval block is read as: the deployment itself, which sees every signature and
 * is no person (so nothing in the block depends on who asked to submit).
 */
const deploymentView = (house: { readonly deployment: Deployment }): Caller => ({
  identity: house.deployment.deploymentId,
  role: 'admin',
  kind: 'local',
  scope: null,
  demo: false,
  surface: 'socket',
});

/**
 * gv.approval's answer without its `revision`, which moves with every journal event naming
 * the row (the submission's own queueing and outcomes among them) and would give the same
 * state a new submission id on each attempt.
 */
function approvalBlock(house: { readonly store: Store; readonly access: AccessPart; readonly review: ReviewPart; readonly deployment: Deployment }, row: ArtifactRow) {
  const { revision: _revision, ...approval } = approvalOf(house, deploymentView(house), row);
  return approval;
}

/**
 * The emails of the people a submission names (its writer, signers, deciders and promoters
 * whose identity is `iss|sub`), as this gate's people table holds them: the organization
 * matches its own people with them when they sign in there at another issuer
 * (docs/organization.md "Who counts at the organization"). `email_verified` is false: the
 * gate's own sign-in takes the address an admin gave a person, and sends no mail to prove it,
 * and it keeps no issuer's word about the address of a person who signs in elsewhere.
 */
function peopleNamed(house: { readonly store: Store }, identities: Iterable<unknown>) {
  const people: Array<{ identity: string; email: string; email_verified: false }> = [];
  for (const identity of new Set(identities)) {
    if (typeof identity !== 'string' || !identity.includes('|')) continue;
    const email = house.store.people.namesOf(identity)?.email;
    if (typeof email === 'string' && email !== '') people.push({ identity, email, email_verified: false });
  }
  return people.sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0));
}

const byOf = (event: string): unknown => {
  try {
    return (JSON.parse(event) as { by?: unknown }).by;
  } catch {
    return null;
  }
};

/**
 * The body of PUT /submissions/{artifact_id} (README "submission/1"): the promoted row's
 * envelope and bytes, its approval as gv.approval gives it, its decisions as gv.audit gives
 * them, its promote events and its ingest event verbatim, the emails of the people it names
 * (canonical bytes and deployment signature, verifiable against the deployment id alone, and
 * after a key rotation through the key_rotations it carries).
 * Its id is sha256 over the canonical JSON (RFC 8785); its signature Ed25519 over the
 * signing prefix and those bytes. Nothing time-dependent is in it, so the same state gives
 * the same id on every attempt.
 */
export function buildSubmission(house: { readonly store: Store; readonly access: AccessPart; readonly review: ReviewPart; readonly deployment: Deployment }, row: ArtifactRow) {
  const content = house.store.artifacts.bodyBytes(row.content_hash);
  const approval = approvalBlock(house, row);
  const decisions = signedHistory(house, row.artifact_id).filter((e) => DECISIONS.has(e.type));
  const promotions = promotionsOf(house, row.artifact_id);
  const submission = {
    contract: SUBMISSION_CONTRACT,
    artifact_id: row.artifact_id,
    deployment_id: house.deployment.deploymentId,
    envelope: { ...envelopeOf(row, house.deployment.deploymentId), kind: row.kind, space: row.space, workarea: row.workarea },
    content: { encoding: 'base64', bytes: content === null ? null : content.toString('base64') },
    approval,
    decisions,
    promotions,
    ingest: ingestOf(house, row.artifact_id),
    people: peopleNamed(house, [
      row.writer_identity,
      ...approval.signers.map((s) => s.identity),
      ...approval.decisions.map((d) => d.by),
      ...decisions.map((d) => d.by),
      ...promotions.map((p) => byOf(p.event)),
    ]),
    // After `gate key rotate`: the rotations that prove the signing key from the deployment id (absent before, so earlier ids stay).
    ...(house.deployment.signingKeys.rotated ? { key_rotations: house.store.deploymentKeys.rotations() } : {}),
  };
  const canonical = canonicalJson(submission);
  return {
    submission,
    id: `sha256:${sha256Hex(canonical)}`,
    sig: house.deployment.key.sign(SUBMISSION_SIGNING_PREFIX + canonical),
  };
}
