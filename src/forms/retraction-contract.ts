/**
 * The contract a retraction body names: a member gate erased a row's content and asks the
 * organization to erase its copy (docs/organization.md "Erasure at a member"; the door is
 * recorded in docs/spec-choices.md).
 */
export const RETRACTION_CONTRACT = 'retraction/1';
/** Signed bytes are this prefix and the canonical retraction, so the signature means nothing elsewhere. */
export const RETRACTION_SIGNING_PREFIX = 'gate retraction/1\n';

/** What the member signs: the row, its content hash, and the erasure event of its journal (by id and time, never its reason). */
export interface Retraction {
  contract: typeof RETRACTION_CONTRACT;
  artifact_id: string;
  deployment_id: string;
  content_hash: string;
  erasure_event_id: string;
  erased_ts: number;
  /** After `gate key rotate`: the member's key-rotated events, which prove the key that signs from the deployment id (absent before). */
  key_rotations?: Array<{ seq: number; event_id: string; body: string; sig: string }>;
}
