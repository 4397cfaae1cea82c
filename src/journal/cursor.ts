import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, createHash } from 'node:crypto';

export interface CursorPosition {
  /** The seq the next read starts after (forward) or before (backward). */
  seq: number;
  direction: 'forward' | 'backward';
}

/**
 * Sealed event cursors (docs/protocol.md#events, rule 2): AES-256-GCM under a key derived from the
 * deployment key, so they survive restarts, cannot be forged or read, and carry a fresh
 * nonce so no two answers give the same string. A cursor is bound to the identity it was
 * given to: presented by anyone else it is unusable.
 */
export class CursorSealer {
  private readonly key: Buffer;

  constructor(deploymentSeed: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', deploymentSeed, Buffer.alloc(0), 'gate.cursor/1', 32));
  }

  seal(position: CursorPosition, identity: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(identityTag(identity));
    const plain = Buffer.from(JSON.stringify({ s: position.seq, d: position.direction === 'forward' ? 'f' : 'b' }));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** Returns null for anything that is not a cursor this deployment sealed for this identity. */
  open(cursor: string, identity: string): CursorPosition | null {
    try {
      const raw = Buffer.from(cursor, 'base64url');
      if (raw.length < 29) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(identityTag(identity));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      const parsed = JSON.parse(plain.toString('utf8')) as { s: unknown; d: unknown };
      if (typeof parsed.s !== 'number' || !Number.isInteger(parsed.s) || parsed.s < 0) return null;
      if (parsed.d !== 'f' && parsed.d !== 'b') return null;
      return { seq: parsed.s, direction: parsed.d === 'f' ? 'forward' : 'backward' };
    } catch {
      return null;
    }
  }
}

const identityTag = (identity: string) => createHash('sha256').update(identity).digest();
