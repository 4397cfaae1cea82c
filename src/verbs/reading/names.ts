import { z } from 'zod';
import { defineVerb } from '../define-verb.js';

/**
 * Who the identities in an answer are, for a person reading them: a signed-in person's
 * email and name as the people table holds them. Answers name people by identity
 * (`iss|sub`), which is exact but says nothing to a reviewer; the console shows the email
 * and keeps the identity on hover. Reviewers see who signs and decides, so they may ask;
 * a key's or a socket peer's identity has no entry and is answered with nulls.
 */
const namesAnswer = z.object({
  names: z.array(z.object({ identity: z.string(), email: z.string().nullable(), name: z.string().nullable() })),
});

export const namesVerb = defineVerb({
  name: 'gv.names',
  role: 'reviewer',
  summary: "The email and name of each identity that is a signed-in person (null for keys, socket peers and unknown identities).",
  params: z.strictObject({ identities: z.array(z.string().min(1).max(1024)).min(1).max(200) }),
  answer: namesAnswer,
  handler({ store }, p) {
    return {
      names: [...new Set(p.identities)].map((identity) => {
        const known = store.people.namesOf(identity);
        return { identity, email: known?.email ?? null, name: known?.name ?? null };
      }),
    };
  },
});
