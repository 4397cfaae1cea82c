import { KNOWN_KEYS } from '../../config/known-keys.js';
import { configSaveText } from '../../config/config-save-text.js';
import { writeFileAtomic } from '../../config/atomic-write.js';
import { shownValue } from '../../config/settings-display.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { provenBy } from '../operator-proof.js';
import type { CheckedChanges } from './settings-change.js';
import type { VerbContext } from '../define-verb.js';

const running = (config: VerbContext['config'], section: string, key: string) => (config as Record<string, Record<string, unknown>>)[section]![key];

/**
 * Writes checked changes to gate.toml (atomically, inside the journal's transaction, so a
 * failed write rolls the settings-saved event back), then applies the keys read at each use
 * to the running gate and notes the others as waiting for a restart. Shared by
 * gv.settings_save and gv.org_join, which saves the [org] keys a join sets.
 */
export async function saveCheckedSettings(
  { caller, store, deployment, config, log }: Pick<VerbContext, 'caller' | 'store' | 'deployment' | 'config' | 'log'>,
  checked: CheckedChanges,
  operatorKey: string | null,
  verb: string,
) {
  const { text, rewritten } = configSaveText(deployment.paths.config, checked.fileValues);
  const live = checked.accepted.filter((a) => a.applies === 'live').map((a) => a.key);
  const restart = checked.accepted.filter((a) => a.applies === 'restart').map((a) => a.key);
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
    } else if (canonicalJson(a.parsed) === canonicalJson(running(config, section, key))) {
      // Saved back to what runs: nothing waits for a restart.
      origin.savedForRestart.delete(a.key);
    } else {
      origin.savedForRestart.set(a.key, a.value);
    }
  }
  log.info(`${verb}: gate.toml saved`, { by: caller.identity, keys: checked.accepted.map((a) => a.key).join(','), restart_required: restart.join(',') });
  if (rewritten) {
    log.warn(`${verb}: gate.toml could not be edited in place and was written whole from the template; its own comments and order are gone`);
  }
  return {
    saved: checked.accepted.map((a) => ({ key: a.key, value: shownValue(a.value), applies: a.applies })),
    applied_live: live,
    restart_required: restart,
    file: deployment.paths.config,
    event_id: event.event_id,
  };
}
