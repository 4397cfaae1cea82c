import { createHmac } from 'node:crypto';

/**
 * An email as the log names it: a keyed hash under the deployment key's seed, so an
 * operator can tell that failed sign-ins aim at one address without the address being in
 * the log, and whoever reads the log cannot test a guessed address against it without the key.
 */
export function emailPseudonym(seed: Buffer, email: string): string {
  return createHmac('sha256', seed).update(`gate log email\0${email}`).digest('base64url').slice(0, 16);
}
