import { verifyAsync } from '@noble/ed25519';

const fromBase64url = (s: string): Uint8Array => {
  const b64 = s.replaceAll('-', '+').replaceAll('_', '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

/**
 * Verifies a journal event's signature where node:crypto is absent (the browser console):
 * @noble/ed25519's async API needs only WebCrypto's SHA-512. The body is the event's
 * canonical JSON; the deployment id is the base64url public key.
 */
export function verifyEventSignature(deploymentId: string, canonicalBody: string, signature: string): Promise<boolean> {
  return verifyAsync(fromBase64url(signature), new TextEncoder().encode(canonicalBody), fromBase64url(deploymentId), { zip215: false });
}
