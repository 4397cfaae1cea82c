import type { IdentityNames } from '../domain/shown-identity.js';

/**
 * The emails a submission states for the member's people it names (`people`: identity,
 * email, src/submission/submission.ts): what the organization's console and `gate org review`
 * show the member's signers and deciders by, since the organization keeps no people table of
 * the member's (docs/organization.md). Entries not shaped as the member writes them are left out.
 */
export function submissionNames(people: unknown): Map<string, IdentityNames> {
  const names = new Map<string, IdentityNames>();
  if (!Array.isArray(people)) return names;
  for (const p of people as Array<Record<string, unknown> | null>) {
    if (typeof p?.['identity'] === 'string' && typeof p['email'] === 'string') names.set(p['identity'], { email: p['email'] });
  }
  return names;
}
