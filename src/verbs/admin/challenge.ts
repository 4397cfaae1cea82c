import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { proofParam } from '../operator-proof.js';
import { proofCheckAnswer } from '../answer-types.js';

/**
 * What needs an operator proof when `[auth].operator_keys` lists a key. The one list the
 * verbs, gv.operator_proof and the README's reference agree on.
 */
export const OPERATOR_SIGNED = [
  { method: 'gv.grant', when: 'every issue and revoke' },
  { method: 'gv.people', when: 'assign and remove' },
  { method: 'gv.person_add', when: 'always' },
  { method: 'gv.person_reset', when: 'always' },
  { method: 'gv.keys', when: 'issue of an admin or runner key' },
  { method: 'gv.runner_assign', when: 'always (it grants the runner read and contribute on the space)' },
  { method: 'gv.erase', when: 'always' },
] as const;

const challengeAnswer = z.object({ nonce: z.string(), ttl_ms: z.number().int() });

export const challengeVerb = defineVerb({
  name: 'gv.challenge',
  role: 'reader',
  summary: 'A fresh single-use nonce for an operator proof {nonce, sig}.',
  params: z.strictObject({}),
  answer: challengeAnswer,
  uses: ['auth'],
  handler({ caller, auth }) {
    return auth.operatorProofs.challenge(caller.identity);
  },
});

const operatorProofAnswer = z.object({
  required: z.boolean(),
  operator_keys: z.array(z.string()),
  verbs: z.array(z.object({ method: z.string(), when: z.string() })).describe('the verbs that need a proof, and when'),
  ttl_ms: z.number().int(),
  signs: z.string(),
});

export const operatorProofVerb = defineVerb({
  name: 'gv.operator_proof',
  role: 'admin',
  summary: 'How operator proofs work here: whether one is required, the operator keys, the verbs that need one.',
  params: z.strictObject({}),
  answer: operatorProofAnswer,
  uses: ['auth'],
  handler({ auth }) {
    return {
      required: auth.operatorProofs.required,
      operator_keys: auth.operatorProofs.keyIds,
      verbs: [...OPERATOR_SIGNED],
      ttl_ms: auth.operatorProofs.ttlMs,
      signs: 'the nonce string as ASCII bytes, Ed25519, sig in hex',
    };
  },
});

export const verifyVerb = defineVerb({
  name: 'gv.verify',
  role: 'admin',
  summary: 'Check a proof {nonce, sig} against the operator keys without spending the nonce.',
  params: z.strictObject({ proof: proofParam }),
  answer: proofCheckAnswer,
  uses: ['auth'],
  handler({ caller, auth }, p) {
    return auth.operatorProofs.check(caller.identity, p.proof);
  },
});
