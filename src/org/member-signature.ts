import { verifyWithDeploymentId } from '../forms/ed25519.js';

/** Whether `sig` is the member deployment's Ed25519 signature over `text`; a malformed signature or key is simply not one. */
export function memberSigned(member: string, text: string, sig: string): boolean {
  try {
    return verifyWithDeploymentId(member, text, sig);
  } catch {
    return false;
  }
}
