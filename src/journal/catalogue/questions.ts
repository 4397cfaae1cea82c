import { z } from 'zod';
import { aboutRowAsHeld } from './fields.js';
import { declare } from './declare.js';

/** Questions: where a promoted question waits (with a crew, with people), its referrals, its end. */
export const QUESTION_EVENTS = {
  'question-routed': declare({
    owner: ['src/questions/'],
    data: z.union([
      z.strictObject({ ...aboutRowAsHeld, route: z.literal('with_people'), reason: z.enum(['no_crew', 'crew_gone']), wait_minutes: z.number() }),
      z.strictObject({ ...aboutRowAsHeld, route: z.literal('with_crew'), crew: z.string(), wait_minutes: z.number() }),
    ]),
    folds: ['questions'],
    // A question's route in closed words and a count (route, reason, crew, wait_minutes).
    served: { object: 'row', fields: ['route', 'reason', 'crew', 'wait_minutes'] },
  }),
  'question-wait-over': declare({
    owner: ['src/questions/'],
    data: z.strictObject({ ...aboutRowAsHeld, from: z.string(), to: z.string(), wait_minutes: z.number().optional() }),
    folds: ['questions'],
    served: { object: 'row', fields: ['from', 'to', 'wait_minutes'] },
  }),
  'question-referred': declare({
    owner: ['src/verbs/writing/'],
    data: z.strictObject({
      ...aboutRowAsHeld,
      from: z.string(),
      crew: z.string(),
      wait_minutes: z.number(),
      /** The answer that referred it: its row, and the crew and slot it names. A referral's words stay inside. */
      referral: z.strictObject({ artifact_id: z.string(), crew: z.string(), slot: z.string() }),
    }),
    folds: ['questions'],
    served: { object: 'row', fields: ['crew', 'wait_minutes'] },
  }),
  'question-ended': declare({
    owner: ['src/verbs/writing/'],
    data: z.strictObject({ ...aboutRowAsHeld, reason: z.string(), answer: z.string() }),
    folds: ['questions'],
  }),
  'question-answered-by-crew': declare({
    owner: ['src/questions/'],
    data: z.strictObject({ ...aboutRowAsHeld, crew: z.string(), answer: z.string() }),
    folds: ['questions'],
    served: { object: 'row', fields: ['crew'] },
  }),
};
