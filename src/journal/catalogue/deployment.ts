import { z } from 'zod';
import { declare } from './declare.js';

/** The deployment itself: its first event, where its home is placed, the keys it signs with. */
export const DEPLOYMENT_EVENTS = {
  'deployment-created': declare({
    owner: ['src/gate.ts'],
    data: z.strictObject({ deployment_id: z.string(), service: z.literal('gate') }),
    folds: [],
  }),
  'home-placed': declare({
    owner: ['src/gate.ts'],
    // Where the home is (src/store/home-place.ts): this placement, why, and the one before.
    data: z.looseObject({ instance: z.string(), host: z.string(), machine: z.string().nullable(), path: z.string(), reason: z.string() }),
    folds: [],
  }),
  'key-rotated': declare({
    owner: ['src/cli/'],
    // Identifiers only: answers hand this event out verbatim to whoever checks a later signature.
    data: z.strictObject({ deployment_id: z.string(), key: z.string(), previous_key: z.string() }),
    folds: ['deployment-keys'],
  }),
};
