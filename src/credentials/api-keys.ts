import { randomBytes, createHash } from 'node:crypto';

/** An API key is `gk_` + 43 base64url characters (32 random bytes); only its sha256 is stored. */
export const API_KEY_PATTERN = /^gk_[A-Za-z0-9_-]{43}$/;

export function mintApiKey(): { raw: string; hash: string; keyId: string } {
  const raw = `gk_${randomBytes(32).toString('base64url')}`;
  const hash = hashApiKey(raw);
  return { raw, hash, keyId: keyIdOf(hash) };
}

export const hashApiKey = (raw: string) => createHash('sha256').update(raw).digest('hex');

/** The key id is the first 12 hex characters of the hash; the identity is `key:<key_id>`. */
export const keyIdOf = (hash: string) => hash.slice(0, 12);
