import type { GateClient } from '@gate/client';
import { isKeyIdentity, isPersonIdentity, type IdentityNames } from '../domain/shown-identity.js';

/**
 * The names and emails of the people among `identities`, and the labels of the keys among
 * them that wrote a row, in one gv.names call, for a command that shows them to the person
 * running it (docs/commands.md `gate sign`). gv.names answers a signed-in person at reviewer
 * or above; below, or when nobody among them is a person or a key, the map is empty and the
 * identities are shown as they are.
 */
export async function namesOf(client: GateClient, identities: Iterable<string | null | undefined>): Promise<Map<string, IdentityNames>> {
  const named = [...new Set([...identities].filter((i): i is string => typeof i === 'string' && (isPersonIdentity(i) || isKeyIdentity(i))))].slice(0, 200);
  const names = new Map<string, IdentityNames>();
  if (named.length === 0) return names;
  try {
    const answer = (await client.call('gv.names', { identities: named })) as { names?: Array<{ identity: string; email: string | null; name: string | null; label?: string | null }> };
    for (const n of answer.names ?? []) names.set(n.identity, { email: n.email, name: n.name, label: n.label ?? null });
  } catch {
    // Refused (a person below reviewer): the identities stand.
  }
  return names;
}
