import { z } from 'zod';
import { existsSync } from 'node:fs';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { CONFIG_KEYS, type KeySpec } from '../../config/keys.js';
import { LIVE_KEYS } from '../../config/live-keys.js';
import { secretNames, shownValue } from '../../config/settings-display.js';
import { proofParam, requireOperatorProof } from '../operator-proof.js';
import { checkChanges } from './settings-change.js';
import { saveCheckedSettings } from './settings-save.js';
import type { House } from '../house.js';
import { secretNameAnswer } from '../answer-types.js';

const KEYS = CONFIG_KEYS as Record<string, Record<string, KeySpec>>;
const running = (house: Pick<House, 'config'>, section: string, key: string) => (house.config as Record<string, Record<string, unknown>>)[section]![key];

const changesParam = z
  .record(z.string().min(1).max(128), z.unknown())
  .refine((c) => Object.keys(c).length >= 1 && Object.keys(c).length <= 100, 'changes names 1 to 100 keys, as section.key');

const settingsAnswer = z.object({
  file: z.string(),
  exists: z.boolean(),
  values: z.array(z.union([
    z.object({
      saved: z.unknown(),
      key: z.string(),
      value: z.unknown(),
      source: z.union([z.literal('file'), z.literal('default'), z.string()]),
      applies: z.string(),
    }),
    z.object({
      key: z.string(),
      value: z.unknown(),
      source: z.union([z.literal('file'), z.literal('default'), z.string()]),
      applies: z.string(),
    }),
  ])),
  secrets: z.array(secretNameAnswer),
  restart_required: z.array(z.string()),
});

export const settingsVerb = defineVerb({
  name: 'gv.settings',
  role: 'admin',
  summary: 'The configuration in force, each value with its source as gate config prints it; secrets only by the variable holding them.',
  params: z.strictObject({}),
  answer: settingsAnswer,
  uses: ['deployment', 'config'],
  handler({ deployment, config }) {
    const origin = deployment.configOrigin;
    const values = Object.entries(KEYS).flatMap(([section, keys]) =>
      Object.keys(keys).map((key) => {
        const name = `${section}.${key}`;
        const saved = origin.savedForRestart.has(name) ? { saved: shownValue(origin.savedForRestart.get(name)) } : {};
        return { key: name, value: shownValue(running({ config }, section, key)), source: origin.sources[name] ?? 'default', applies: LIVE_KEYS.has(name) ? 'live' : 'restart', ...saved };
      }),
    );
    return {
      file: deployment.paths.config,
      exists: existsSync(deployment.paths.config),
      values,
      secrets: secretNames(config),
      restart_required: [...origin.savedForRestart.keys()],
    };
  },
});

const settingsValidateAnswer = z.object({
  valid: z.boolean(),
  accepted: z.array(z.object({ key: z.string(), value: z.unknown(), applies: z.enum(['live', 'restart']) })),
  refused: z.array(z.object({ key: z.string(), reason: z.string() })),
  restart_required: z.array(z.string()),
});

export const settingsValidateVerb = defineVerb({
  name: 'gv.settings_validate',
  role: 'admin',
  summary: 'Check a proposed change to gate.toml as the next start would, naming each refused key and why; nothing is written.',
  params: z.strictObject({ changes: changesParam }),
  answer: settingsValidateAnswer,
  uses: ['deployment'],
  handler({ deployment }, p) {
    const checked = checkChanges(deployment.paths.config, deployment.configOrigin, p.changes);
    return {
      valid: checked.refused.length === 0,
      accepted: checked.accepted.map((a) => ({ key: a.key, value: shownValue(a.value), applies: a.applies })),
      refused: checked.refused,
      restart_required: checked.accepted.filter((a) => a.applies === 'restart').map((a) => a.key),
    };
  },
});

const settingsSaveAnswer = z.object({
  saved: z.array(z.object({ key: z.string(), value: z.unknown(), applies: z.enum(['live', 'restart']) })),
  applied_live: z.array(z.string()),
  restart_required: z.array(z.string()),
  file: z.string(),
  event_id: z.string(),
});

export const settingsSaveVerb = defineVerb({
  name: 'gv.settings_save',
  role: 'admin',
  summary: 'Save a change to gate.toml atomically, journaled; keys read at each use apply at once, the others at the next start.',
  params: z.strictObject({ changes: changesParam, proof: proofParam.optional() }),
  answer: settingsSaveAnswer,
  uses: ['store', 'auth', 'deployment', 'config', 'log'],
  async handler(ctx, p) {
    const checked = checkChanges(ctx.deployment.paths.config, ctx.deployment.configOrigin, p.changes);
    if (checked.refused.length > 0) {
      throw invalidParams(`gv.settings_save: ${checked.refused.map((r) => r.key).join(', ')} refused; nothing was saved`, { refused: checked.refused });
    }
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.settings_save');
    return saveCheckedSettings(ctx, checked, operatorKey, 'gv.settings_save');
  },
});
