import { hash } from 'node:crypto';

export { canonicalJson } from '@gate/client/forms';

/** One-shot crypto.hash: about half the cost of a Hash object for the short inputs the write path hashes. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}
