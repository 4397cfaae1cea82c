import { randomBytes } from 'node:crypto';
import { ed25519KeyProblem, verifyEd25519Strict } from '../forms/strict-ed25519.js';
import type { Clock } from '../clock.js';

export type NonceState = 'fresh' | 'used' | 'expired' | 'unknown';

export interface ProofCheck {
  valid: boolean;
  /** The operator key (base64url of its raw 32 bytes) whose signature verified. */
  operator_key?: string;
  nonce: NonceState;
}

interface Nonce {
  identity: string;
  expiresAt: number;
  used: boolean;
}

const MAX_NONCES = 10_000;
const MAX_PER_IDENTITY = 16;

/** An operator key is listed as the raw Ed25519 public key in base64url (43) or hex (64). */
export function operatorKeyOf(listed: string): { id: string; key: Uint8Array } {
  const raw = listed.length === 64 ? Buffer.from(listed, 'hex') : Buffer.from(listed, 'base64url');
  const problem = ed25519KeyProblem(raw);
  if (problem !== null) throw new Error(`operator key ${listed} is refused: ${problem}`);
  return { id: raw.toString('base64url'), key: raw };
}

/**
 * Operator proofs (docs/protocol.md#operator-proofs, docs/sign-in.md#operator-proofs): gv.challenge hands out
 * a fresh nonce bound to the identity that asked; a proof is {nonce, sig} with sig the hex
 * Ed25519 signature over the nonce's ASCII bytes by a key listed in `[auth].operator_keys`.
 * One nonce, one verb, once: a used nonce is remembered until it expires, so a replay is
 * told apart from a nonce that never existed. Nonces live in memory; a restart voids them.
 */
export class OperatorProofs {
  private readonly keys: Array<{ id: string; key: Uint8Array }>;
  private readonly nonces = new Map<string, Nonce>();

  constructor(
    listed: readonly string[],
    readonly ttlMs: number,
    private readonly clock: Clock,
  ) {
    this.keys = listed.map(operatorKeyOf);
  }

  /** With no operator key listed there is nobody to sign, and operator verbs run without a proof. */
  get required(): boolean {
    return this.keys.length > 0;
  }

  get keyIds(): string[] {
    return this.keys.map((k) => k.id);
  }

  private prune(now: number): void {
    for (const [nonce, n] of this.nonces) if (n.expiresAt <= now) this.nonces.delete(nonce);
  }

  challenge(identity: string): { nonce: string; ttl_ms: number } {
    const now = this.clock.now();
    this.prune(now);
    const mine = [...this.nonces.entries()].filter(([, n]) => n.identity === identity && !n.used);
    // A caller asking again and again keeps only its newest few nonces.
    if (mine.length >= MAX_PER_IDENTITY) this.nonces.delete(mine[0]![0]);
    if (this.nonces.size >= MAX_NONCES) this.nonces.delete(this.nonces.keys().next().value!);
    const nonce = randomBytes(32).toString('base64url');
    this.nonces.set(nonce, { identity, expiresAt: now + this.ttlMs, used: false });
    return { nonce, ttl_ms: this.ttlMs };
  }

  private signer(nonce: string, sig: string): string | undefined {
    if (!/^[0-9a-fA-F]{128}$/.test(sig)) return undefined;
    const bytes = Buffer.from(sig, 'hex');
    return this.keys.find((k) => verifyEd25519Strict(bytes, Buffer.from(nonce, 'ascii'), k.key))?.id;
  }

  private stateOf(nonce: Nonce | undefined, identity: string, now: number): NonceState {
    if (nonce === undefined || nonce.identity !== identity) return 'unknown';
    if (nonce.expiresAt <= now) return 'expired';
    return nonce.used ? 'used' : 'fresh';
  }

  /** Checks a proof without spending its nonce (gv.verify). */
  check(identity: string, proof: { nonce: string; sig: string }): ProofCheck {
    const state = this.stateOf(this.nonces.get(proof.nonce), identity, this.clock.now());
    const key = this.signer(proof.nonce, proof.sig);
    return { valid: state === 'fresh' && key !== undefined, ...(key === undefined ? {} : { operator_key: key }), nonce: state };
  }

  /** Spends the nonce of a valid proof; answers the operator key, or why the proof fails. */
  spend(identity: string, proof: { nonce: string; sig: string }): { ok: true; operatorKey: string } | { ok: false; reason: string; why: string } {
    const nonce = this.nonces.get(proof.nonce);
    const state = this.stateOf(nonce, identity, this.clock.now());
    if (state === 'unknown') return { ok: false, reason: 'proof_unknown', why: 'the nonce was not issued to this caller by gv.challenge' };
    if (state === 'expired') return { ok: false, reason: 'proof_expired', why: 'the nonce has expired; ask gv.challenge for a fresh one' };
    if (state === 'used') return { ok: false, reason: 'proof_replayed', why: 'the nonce was already used; a proof is good for one verb, once' };
    const key = this.signer(proof.nonce, proof.sig);
    if (key === undefined) return { ok: false, reason: 'proof_invalid', why: 'sig is not an operator key\'s Ed25519 signature over the nonce' };
    nonce!.used = true;
    return { ok: true, operatorKey: key };
  }
}
