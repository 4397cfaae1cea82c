import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { TRUST_CLASSES } from '../../domain/kinds.js';
import { classCounts, quorumRule, settlerProblem } from '../../review/quorum.js';
import { SIGNER_CLASSES } from '../../domain/signer-class.js';
import { modelLabel } from '../../../workers/grade/backend.js';

/**
 * The review policy in force for a space, per trust class, read from the same rules
 * gv.approval counts with (quorum.ts): k and how many people, whether a second authority
 * must countersign, which signer classes count toward k, and who may settle.
 */
const policyAnswer = z.object({
  space: z.string(),
  mode: z.enum(['model', 'human', 'auto']),
  quorum_profile: z.string(),
  classes: z.array(z.object({
    trust_class: z.enum(['T-1', 'T-2', 'T-3', 'T-4', 'T-5']),
    k: z.number(),
    people: z.number(),
    countersign: z.boolean(),
    on_quorum: z.string(),
    signers: z.array(z.object({
      why: z.string().optional(),
      class: z.enum(['agent', 'model', 'human', 'deployment', 'authority']),
      counts: z.boolean(),
    })),
    settled_by: z.array(z.enum(['agent', 'model', 'human', 'deployment', 'authority'])),
  })),
  stances: z.array(z.object({ stance: z.string(), backend: z.string(), model_label: z.string() })),
  second_opinion: z.string().nullable(),
  human_ttl_hours: z.number(),
  away: z.boolean(),
});

export const policyVerb = defineVerb({
  name: 'gv.policy',
  role: 'reader',
  summary: 'The review policy and quorum profile in force for a space (and a trust class), as gv.approval counts them.',
  params: z.strictObject({ space: spaceParam.optional(), trust_class: z.enum(TRUST_CLASSES).optional() }),
  answer: policyAnswer,
  uses: ['store', 'review'],
  handler({ store, review }, p) {
    const space = requireSpace({ store }, p.space ?? 'main');
    const settings = review.board.settings;
    const mode = review.board.modeOf(space);
    const classes = (p.trust_class === undefined ? TRUST_CLASSES : [p.trust_class]).map((trustClass) => {
      const rule = quorumRule(settings.profile, trustClass, mode);
      return {
        trust_class: trustClass,
        k: rule.k,
        people: rule.people,
        countersign: rule.countersign,
        // T-3 and T-5 meeting quorum are ratified and wait for a second authority; the rest are promoted provisional until one countersigns.
        on_quorum: rule.countersign ? 'ratified' : 'promoted_provisional',
        signers: SIGNER_CLASSES.map((cls) => {
          const why = classCounts(cls, mode);
          return { class: cls, counts: why === null, ...(why === null ? {} : { why }) };
        }),
        settled_by: SIGNER_CLASSES.filter((cls) => cls !== 'authority' && cls !== 'model' && settlerProblem(mode, cls) === null),
      };
    });
    const away = review.board.away.current();
    return {
      space,
      mode,
      quorum_profile: settings.profileName,
      classes,
      stances: settings.stances.map((s) => ({ stance: s.stance, backend: s.backend.backend.name, model_label: modelLabel(s.backend.backend) })),
      second_opinion: settings.secondOpinion === null ? null : modelLabel(settings.secondOpinion.backend),
      human_ttl_hours: settings.ttlMs / 3_600_000,
      away: away !== undefined,
    };
  },
});
