import { Point, verifyAsync } from '@noble/ed25519';
import { ProofError } from './proof-error.js';
import { fromBase64, sha256 } from './web-hash.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** A deployment's keys as proven from its id: the first key is the id; each later one was named by a rotation the key before signed. */
export interface ProvenKeys {
  readonly deploymentId: string;
  readonly keys: ReadonlyArray<{ key: string; from_seq: number }>;
  /** The key that signed the event of `seq`. */
  keyAt(seq: number): string;
  /** The key that signs now: what a checkpoint or a signature made when answered is checked against. */
  readonly current: string;
}

function strongKey(x: unknown): x is string {
  if (typeof x !== 'string') return false;
  const raw = fromBase64(x);
  if (raw.length !== 32 || base64url(raw) !== x) return false;
  try {
    return !Point.fromBytes(raw, false).isSmallOrder();
  } catch {
    return false;
  }
}

function proven(deploymentId: string, keys: Array<{ key: string; from_seq: number }>): ProvenKeys {
  const keyAt = (seq: number) => keys.reduce((k, next) => (next.from_seq <= seq ? next.key : k), keys[0]!.key);
  return { deploymentId, keys, keyAt, current: keys.at(-1)!.key };
}

/**
 * The keys of a deployment from its id and the `key_rotations` an answer carries (absent:
 * the id is the only key), in the browser as in Node. Each rotation must hash to its event
 * id, be a key-rotated event of this deployment at its seq, retire the key signing there,
 * carry that key's signature, and name a strong Ed25519 key not used before; the answer's
 * word is taken for nothing else. A refusal is a ProofError `signature` (a link that does not
 * hold) or `malformed`.
 */
export async function provenKeys(deploymentId: string, rotations: unknown): Promise<ProvenKeys> {
  const keys = [{ key: deploymentId, from_seq: 1 }];
  if (rotations === undefined) return proven(deploymentId, keys);
  if (!Array.isArray(rotations)) throw new ProofError('malformed', 'key_rotations is a list of key-rotated events');
  const ordered = [...rotations].sort((a, b) => (isObject(a) && isObject(b) ? Number(a['seq']) - Number(b['seq']) : 0));
  for (const r of ordered) {
    if (!isObject(r) || typeof r['body'] !== 'string' || typeof r['sig'] !== 'string' || typeof r['seq'] !== 'number' || typeof r['event_id'] !== 'string') {
      throw new ProofError('malformed', 'a key rotation lacks its seq, event_id, body or sig');
    }
    if (hex(await sha256(new TextEncoder().encode(r['body']))) !== r['event_id']) throw new ProofError('signature', `the key rotation at seq ${r['seq']} does not hash to its event id`);
    let event: { type?: unknown; seq?: unknown; data?: Record<string, unknown> };
    try {
      event = JSON.parse(r['body']);
    } catch {
      throw new ProofError('malformed', `the key rotation at seq ${r['seq']} is not JSON`);
    }
    const retiring = proven(deploymentId, keys).keyAt(r['seq']);
    const data = event.data ?? {};
    if (event.type !== 'key-rotated' || event.seq !== r['seq'] || data['deployment_id'] !== deploymentId || data['previous_key'] !== retiring) {
      throw new ProofError('signature', `the event at seq ${r['seq']} is not a rotation of this deployment's key signing there`);
    }
    const next = data['key'];
    if (!strongKey(next) || keys.some((k) => k.key === next)) throw new ProofError('signature', `the key rotation at seq ${r['seq']} names no new strong Ed25519 key`);
    let holds = false;
    try {
      holds = await verifyAsync(fromBase64(r['sig']), new TextEncoder().encode(r['body']), fromBase64(retiring), { zip215: false });
    } catch {
      holds = false;
    }
    if (!holds) throw new ProofError('signature', `the key rotation at seq ${r['seq']} is not signed by the key it retires`);
    keys.push({ key: next, from_seq: r['seq'] + 1 });
  }
  return proven(deploymentId, keys);
}
