import { z } from 'zod';
import { existsSync } from 'node:fs';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { CONFIG_KEYS, type KeySpec } from '../../config/keys.js';
import { KNOWN_KEYS } from '../../config/known-keys.js';
import { LIVE_KEYS } from '../../config/live-keys.js';
import { configSaveText } from '../../config/config-save-text.js';
import { writeFileAtomic } from '../../config/atomic-write.js';
import { secretNames, shownValue } from '../../config/settings-display.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import { checkChanges } from './settings-change.js';
import type { House } from '../house.js';

const KEYS = CONFIG_KEYS as Record<string, Record<string, KeySpec>>;
const running = (house: Pick<House, 'config'>, section: string, key: string) => (house.config as Record<string, Record<string, unknown>>)[section]![key];

const changesParam = z
  .record(z.string().min(1).max(128), z.unknown())
  .refine((c) => Object.keys(c).length >= 1 && Object.keys(c).length <= 100, 'changes names 1 to 100 keys, as section.key');

export const settingsVerb = defineVerb({
  name: 'gv.settings',
  role: 'admin',
  summary: 'The configuration in force, each value with its source as gate config prints it; secrets only by the variable holding them.',
  params: z.strictObject({}),
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

export const settingsValidateVerb = defineVerb({
  name: 'gv.settings_validate',
  role: 'admin',
  summary: 'Check a proposed change to gate.toml as the next start would, naming each refused key and why; nothing is written.',
  params: z.strictObject({ changes: changesParam }),
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

export const settingsSaveVerb = defineVerb({
  name: 'gv.settings_save',
  role: 'admin',
  summary: 'Save a change to gate.toml atomically, journaled; keys read at each use apply at once, the others at the next start.',
  params: z.strictObject({ changes: changesParam, proof: proofParam.optional() }),
  async handler(ctx, p) {
    const { caller, store, deployment, config, log } = ctx;
    const checked = checkChanges(deployment.paths.config, deployment.configOrigin, p.changes);
    if (checked.refused.length > 0) {
      throw invalidParams(`gv.settings_save: ${checked.refused.map((r) => r.key).join(', ')} refused; nothing was saved`, { refused: checked.refused });
    }
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.settings_save');
    const { text, rewritten } = configSaveText(deployment.paths.config, checked.fileValues);
    const live = checked.accepted.filter((a) => a.applies === 'live').map((a) => a.key);
    const restart = checked.accepted.filter((a) => a.applies === 'restart').map((a) => a.key);
    // The file is replaced inside the journal's transaction: a write that fails rolls the event back.
    const event = await store.writer.write(() => {
      const appended = store.journal.append('settings-saved', caller.identity, {
        keys: checked.accepted.map((a) => a.key),
        values: Object.fromEntries(checked.accepted.map((a) => [a.key, shownValue(a.value)])),
        applied_live: live,
        restart_required: restart,
        file_sha256: sha256Hex(text),
        ...provenBy(operatorKey),
      });
      writeFileAtomic(deployment.paths.config, text);
      return appended;
    });
    const origin = deployment.configOrigin;
    for (const a of checked.accepted) {
      const [section, key] = a.key.split('.') as [string, string];
      const source = canonicalJson(a.value) === canonicalJson(KNOWN_KEYS.get(a.key)!.default) ? 'default' : 'file';
      if (a.applies === 'live') {
        (config as Record<string, Record<string, unknown>>)[section]![key] = a.parsed;
        origin.sources[a.key] = source;
      } else if (canonicalJson(a.parsed) === canonicalJson(running({ config }, section, key))) {
        // Saved back to what runs: nothing waits for a restart.
        origin.savedForRestart.delete(a.key);
      } else {
        origin.savedForRestart.set(a.key, a.value);
      }
    }
    log.info('gv.settings_save: gate.toml saved', { by: caller.identity, keys: checked.accepted.map((a) => a.key).join(','), restart_required: restart.join(',') });
    if (rewritten) {
      log.warn('gv.settings_save: gate.toml could not be edited in place and was written whole from the template; its own comments and order are gone');
    }
    return {
      saved: checked.accepted.map((a) => ({ key: a.key, value: shownValue(a.value), applies: a.applies })),
      applied_live: live,
      restart_required: restart,
      file: deployment.paths.config,
      event_id: event.event_id,
    };
  },
});
