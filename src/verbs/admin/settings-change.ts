import { KNOWN_KEYS } from '../../config/known-keys.js';
import { readConfigFile, resolveConfig, type FileValues } from '../../config/load-config.js';
import type { ConfigOrigin } from '../../config/config-origin.js';
import { LIVE_KEYS } from '../../config/live-keys.js';
import { embedBackend } from '../../config/embed-backend.js';
import { reviewSettings } from '../../review/review-settings.js';

export type Applies = 'live' | 'restart';

export interface CheckedChanges {
  accepted: Array<{ key: string; value: unknown; parsed: unknown; applies: Applies }>;
  refused: Array<{ key: string; reason: string }>;
  /** gate.toml's values with the accepted changes made: what a save writes. */
  fileValues: FileValues;
}

/** Checks across keys that start checks too: a section whose keys must agree, and the check that reads them. */
const SECTION_CHECKS: Record<string, (config: ReturnType<typeof resolveConfig>['config']) => unknown> = {
  review: (config) => reviewSettings(config.review),
  embed: (config) => embedBackend(config.embed),
};

/**
 * A proposed change to gate.toml, checked as the next start would check it, each refused key
 * named with why: an unknown key, a value its schema refuses, a key the environment or a
 * start flag sets (it wins over the file, so a saved value would not take effect), or a
 * section whose keys no longer agree (a profile or backend that is not there).
 */
export function checkChanges(file: string, origin: ConfigOrigin, changes: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): CheckedChanges {
  const fileValues: FileValues = structuredClone(readConfigFile(file));
  const accepted: CheckedChanges['accepted'] = [];
  const refused: CheckedChanges['refused'] = [];
  for (const [name, value] of Object.entries(changes)) {
    const spec = KNOWN_KEYS.get(name);
    if (spec === undefined) {
      refused.push({ key: name, reason: 'unknown key: keys are section.key, as gv.settings lists them' });
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      refused.push({ key: name, reason: parsed.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') });
      continue;
    }
    const source = origin.sources[name] ?? 'default';
    if (source.startsWith('env ') || source.startsWith('flag ')) {
      refused.push({ key: name, reason: `${source} sets it, and wins over gate.toml: a saved value would not take effect` });
      continue;
    }
    const [section, key] = name.split('.') as [string, string];
    (fileValues[section] ??= {})[key] = value;
    accepted.push({ key: name, value, parsed: parsed.data, applies: LIVE_KEYS.has(name) ? 'live' : 'restart' });
  }
  if (accepted.length > 0) {
    const { config } = resolveConfig(fileValues, env, origin.flags);
    for (const [section, check] of Object.entries(SECTION_CHECKS)) {
      const touched = accepted.filter((a) => a.key.startsWith(`${section}.`));
      if (touched.length === 0) continue;
      try {
        check(config);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        for (const a of touched) refused.push({ key: a.key, reason });
      }
    }
  }
  return { accepted: refused.length === 0 ? accepted : accepted.filter((a) => !refused.some((r) => r.key === a.key)), refused, fileValues };
}
