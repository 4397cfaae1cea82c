import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { limitParam } from '../param-types.js';
import { banAnswer, visibleBans, visibleRefusals } from './ban-list.js';

const bansAnswer = z.object({
  bans: z.array(banAnswer),
  refused: z.array(z.object({
    writer_identity: z.string(),
    refused: z.number().int(),
    refused_last_7_days: z.number(),
    last_ts: z.number().int(),
  })),
  truncated: z.boolean(),
});

export const bansVerb = defineVerb({
  name: 'gv.bans',
  role: 'reader',
  summary: 'Active bans and the writes they refused, counted per writer; below reviewer only your own.',
  params: z.strictObject({ limit: limitParam(1000).optional() }),
  answer: bansAnswer,
  uses: ['store', 'access', 'clock'],
  handler({ caller, store, access, clock }, p) {
    const limit = p.limit ?? 100;
    const bans = visibleBans({ store, access, clock }, caller, limit);
    const refused = visibleRefusals({ store, access, clock }, caller, limit);
    return { bans: bans.bans, refused: refused.refused, truncated: bans.truncated || refused.truncated };
  },
});
