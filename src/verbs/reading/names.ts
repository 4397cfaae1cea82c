import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';

/**
 * Who the identities in an answer are, for a person reading them: a signed-in person's
 * email and name as the people table holds them. Answers name people by identity
 * (`iss|sub`), which is exact but says nothing to a reviewer; the console shows the email
 * and keeps the identity on hover. People at reviewer and above see who signs and decides,
 * so they may ask, and so may the operator on the socket, who adds people by their email. A
 * program never needs a person's email or name (every answer names people by identity), so
 * an API key is refused whatever its role (docs/spec-choices.md). A key's or a socket peer's
 * identity has no entry and is answered with nulls.
 */
const namesAnswer = z.object({
  names: z.array(z.object({ identity: z.string(), email: z.string().nullable(), name: z.string().nullable() })),
});

export const namesVerb = defineVerb({
  name: 'gv.names',
  role: 'reviewer',
  summary:
    'For a signed-in person at reviewer or above (or the operator on the socket): the email and name of each identity that is a signed-in person (null for keys, socket peers and unknown identities). API keys are refused.',
  params: z.strictObject({ identities: z.array(z.string().min(1).max(1024)).min(1).max(200) }),
  answer: namesAnswer,
  uses: ['store'],
  handler({ caller, store }, p) {
    if (caller.kind === 'program') {
      throw invalidParams("gv.names is for people: an API key is never served people's emails and names; answers name people by identity", {
        reason: 'not_a_person',
      });
    }
    return {
      names: [...new Set(p.identities)].map((identity) => {
        const known = store.people.namesOf(identity);
        return { identity, email: known?.email ?? null, name: known?.name ?? null };
      }),
    };
  },
});
