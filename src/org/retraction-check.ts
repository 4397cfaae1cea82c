import { canonicalJson, sha256Hex } from '../forms/canonical-json.js';
import { memberKeys, memberSigned } from '../forms/member-signature.js';
import { isJsonObject } from '../domain/json-object.js';
import { RETRACTION_CONTRACT, RETRACTION_SIGNING_PREFIX, type Retraction } from '../forms/retraction-contract.js';

const ARTIFACT_ID = /^sha256:[0-9a-f]{64}$/;
const EVENT_ID = /^[0-9a-f]{64}$/;

export type RetractionVerdict = { retraction: Retraction; id: string; sig: string } | { status: 400 | 422; error: string };

/**
 * Reads a PUT /retractions/{id} body (docs/organization.md "Erasure at a member"). 400: not a
 * retraction/1 body (shape, contract, the path's id, an id that is not the sha256 of the
 * canonical retraction); 422: unsigned, a signature that fails against the key's member, or a
 * retraction naming another deployment than the key's member.
 */
export function checkRetraction(pathId: string, body: Record<string, unknown>, member: string): RetractionVerdict {
  const bad = (error: string) => ({ status: 400 as const, error });
  const refused = (error: string) => ({ status: 422 as const, error });
  const { retraction, id, sig } = body;
  if (!isJsonObject(retraction)) return bad('the body is {retraction, id, sig}');
  if (retraction['contract'] !== RETRACTION_CONTRACT) return bad(`contract must be "${RETRACTION_CONTRACT}"`);
  const r = retraction as Partial<Retraction>;
  if (typeof r.artifact_id !== 'string' || !ARTIFACT_ID.test(r.artifact_id)) return bad('retraction.artifact_id must be sha256:<64 hex>');
  if (r.artifact_id !== pathId) return bad('the artifact id in the path differs from retraction.artifact_id');
  if (typeof r.content_hash !== 'string' || !ARTIFACT_ID.test(r.content_hash)) return bad('retraction.content_hash must be sha256:<64 hex>');
  if (typeof r.erasure_event_id !== 'string' || !EVENT_ID.test(r.erasure_event_id)) return bad('retraction.erasure_event_id is the erasure event id (64 hex)');
  if (typeof r.erased_ts !== 'number' || !Number.isSafeInteger(r.erased_ts)) return bad('retraction.erased_ts is the erasure time in ms');
  if (typeof r.deployment_id !== 'string' || r.deployment_id === '') return bad('retraction.deployment_id is required');
  const extra = Object.keys(retraction).filter((k) => !['contract', 'artifact_id', 'deployment_id', 'content_hash', 'erasure_event_id', 'erased_ts', 'key_rotations'].includes(k));
  if (extra.length > 0) return bad(`retraction has fields it does not define: ${extra.join(', ')}`);
  const canonical = canonicalJson(retraction);
  if (typeof id !== 'string' || id !== `sha256:${sha256Hex(canonical)}`) return bad('id must be sha256: + the sha256 of the canonical retraction');
  if (typeof sig !== 'string' || sig === '') return refused('unsigned: sig is required');
  if (r.deployment_id !== member) return refused('wrong deployment: the retraction names a deployment other than the one this key was issued to');
  const keys = memberKeys(member, retraction['key_rotations']);
  if ('problem' in keys) return refused(`key rotations: ${keys.problem}`);
  if (!memberSigned(keys.current, RETRACTION_SIGNING_PREFIX + canonical, sig)) return refused("the signature does not verify against the submitting deployment's key");
  return { retraction: retraction as unknown as Retraction, id, sig };
}
