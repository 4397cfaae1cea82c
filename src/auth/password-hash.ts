import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes for the people file: node:crypto scrypt with a per-person random salt,
 * stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url) so the cost can be raised
 * later without invalidating older hashes. N = 2^15, r = 8 takes 32 MiB and some tens of
 * milliseconds: slow for a guesser, bearable for a person signing in.
 */
const COST = { log2N: 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST.log2N, COST.r, COST.p);
  return ['scrypt', COST.log2N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5]!, 'base64url');
  const key = await derive(password, Buffer.from(m[4]!, 'base64url'), Number(m[1]), Number(m[2]), Number(m[3]));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of no one's password, checked when an email names nobody, so an unknown email
 * costs the same scrypt work as a wrong password and timing tells nothing.
 */
let decoy: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(password, await decoy);
  return false;
}
