import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { isKeyIdentity } from '../../domain/shown-identity.js';
import type { Store } from '../../store/store.js';

/**
 * Who the identities in an answer are, for a person reading them: a signed-in person's
 * email and name as the people table holds them, and a key's label. Answers name people by
 * identity (`iss|sub`) and keys as `key:<id>`, which is exact but says nothing to a
 * reviewer; the console shows the email or the label and keeps the identity on hover.
 * People at reviewer and above see who signs and decides, so they may ask, and so may the
 * operator on the socket, who adds people by their email. A program never needs a person's
 * email or name (every answer names people by identity), so an API key is refused whatever
 * its role (docs/spec-choices.md).
 *
 * A key's label is answered when the key wrote a row: whoever may read that row reads the
 * key as its writer, and every caller of this verb reads every row (from reviewer up,
 * src/access/visibility.ts), whatever space the key was granted. A key that wrote nothing is
 * named to those who manage keys (gv.keys), not here. Nothing else of a key is served: not
 * its role, scope, grants or who issued it (its secret is never kept). A socket peer's
 * identity, and one nobody holds, are answered with nulls.
 */
const namesAnswer = z.object({
  names: z.array(z.object({ identity: z.string(), email: z.string().nullable(), name: z.string().nullable(), label: z.string().nullable() })),
});

/** The labels of the keys among `identities` that wrote a row; absent for any other. */
function writerLabels(store: Pick<Store, 'apiKeys' | 'artifacts'>, identities: string[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const identity of identities.filter(isKeyIdentity)) {
    const label = store.apiKeys.labelOf(identity.slice('key:'.length));
    if (label !== undefined && label !== null && store.artifacts.lastWriteBy(identity) !== null) labels.set(identity, label);
  }
  return labels;
}

export const namesVerb = defineVerb({
  name: 'gv.names',
  role: 'reviewer',
  summary:
    "For a signed-in person at reviewer or above (or the operator on the socket): the email and name of each identity that is a signed-in person, and the label of each key that wrote a row (nulls otherwise: socket peers, unknown identities, a key that wrote nothing). API keys are refused.",
  params: z.strictObject({ identities: z.array(z.string().min(1).max(1024)).min(1).max(200) }),
  answer: namesAnswer,
  uses: ['store'],
  handler({ caller, store }, p) {
    if (caller.kind === 'program') {
      throw invalidParams("gv.names is for people: an API key is never served people's emails and names; answers name people by identity", {
        reason: 'not_a_person',
      });
    }
    const identities = [...new Set(p.identities)];
    const labels = writerLabels(store, identities);
    return {
      names: identities.map((identity) => {
        const known = store.people.namesOf(identity);
        return { identity, email: known?.email ?? null, name: known?.name ?? null, label: labels.get(identity) ?? null };
      }),
    };
  },
});
