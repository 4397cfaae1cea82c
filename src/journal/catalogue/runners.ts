import { z } from 'zod';
import type { RunnerSettings } from '../../domain/runner-settings.js';
import { proven } from './fields.js';
import { declare } from './declare.js';

const runner = { runner: z.string() };

/** Runners: their settings and model token, the crews they are assigned, the keys each batch holds. */
export const RUNNER_EVENTS = {
  'runner-settings-set': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, settings_version: z.number(), settings: z.custom<RunnerSettings>(), fields: z.array(z.string()) }),
    folds: ['runners'],
  }),
  'runner-token-set': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, version: z.number(), origin: z.string().nullable() }),
    folds: ['runners'],
  }),
  'runner-token-cleared': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, version: z.number(), reason: z.string() }),
    folds: ['runners'],
  }),
  'runner-token-served': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, version: z.number(), instance: z.string() }),
    folds: ['runners'],
  }),
  'runner-assigned': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({
      space: z.string(),
      from: z.string().nullable(),
      runner: z.string().nullable(),
      slots: z.array(z.string()),
      sheet: z.string().nullable(),
      key_days: z.number().nullable(),
      reissue: z.boolean(),
      restarts_keys: z.boolean(),
      revoked: z.array(z.string()),
      ...proven,
    }),
    folds: ['runners'],
  }),
  'runner-first-seen': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, instance: z.string(), runner_version: z.string(), host: z.string() }),
    folds: ['runners'],
  }),
  'runner-keys-acknowledged': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, space: z.string(), batch: z.number(), instance: z.string() }),
    folds: ['runners'],
  }),
  'runner-keys-refused': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, space: z.string(), batch: z.number(), instance: z.string(), missing: z.array(z.string()) }),
    folds: ['runners'],
  }),
  'runner-released': declare({
    owner: ['src/verbs/runners/'],
    data: z.strictObject({ ...runner, space: z.string() }),
    folds: ['runners'],
  }),
};
