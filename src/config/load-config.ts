import { existsSync, readFileSync } from 'node:fs';
import { canonicalJson } from '../forms/canonical-json.js';
import { parse as parseToml } from 'smol-toml';
import { CONFIG_KEYS, type GateConfig, type KeySpec } from './keys.js';
import { KNOWN_KEYS, KNOWN_SECTIONS } from './known-keys.js';

export type ValueSource = 'default' | 'file' | `env ${string}` | `flag ${string}`;

export interface LoadedConfig {
  config: GateConfig;
  sources: Record<string, ValueSource>;
}

export const envName = (section: string, key: string) => `GATE_${section.toUpperCase()}_${key.toUpperCase()}`;

/** An environment value is text; read it as the key's type (numbers, booleans, lists as JSON or commas). */
function fromEnv(spec: KeySpec, text: string): unknown {
  const sample = spec.default;
  if (typeof sample === 'number') return text.trim() === '' ? NaN : Number(text);
  if (typeof sample === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (typeof sample === 'object' && sample !== null && !Array.isArray(sample)) return JSON.parse(text);
  if (Array.isArray(sample)) {
    const t = text.trim();
    if (t.startsWith('[')) return JSON.parse(t);
    return t === '' ? [] : t.split(',').map((s) => s.trim());
  }
  return text;
}

/** A section.key → value table as gate.toml holds it. */
export type FileValues = Record<string, Record<string, unknown>>;

/**
 * gate.toml's values, or none when it does not exist yet. Unknown sections or keys are
 * refused by name, so a typo never silently falls back to a default.
 */
export function readConfigFile(file: string): FileValues {
  const fileValues: FileValues = existsSync(file) ? (parseToml(readFileSync(file, 'utf8')) as FileValues) : {};
  for (const [section, values] of Object.entries(fileValues)) {
    if (!KNOWN_SECTIONS.has(section)) throw new Error(`${file}: unknown section [${section}]`);
    if (typeof values !== 'object' || values === null) throw new Error(`${file}: [${section}] is not a table`);
    for (const key of Object.keys(values)) {
      if (!KNOWN_KEYS.has(`${section}.${key}`)) throw new Error(`${file}: unknown key ${section}.${key}`);
    }
  }
  return fileValues;
}

/**
 * The effective configuration: defaults, then gate.toml, then GATE_<SECTION>_<KEY>, then
 * command-line flags. Unknown sections or keys in the file are refused by name, so a typo
 * never silently falls back to a default.
 */
export function loadConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  flags: Record<string, unknown> = {},
): LoadedConfig {
  return resolveConfig(readConfigFile(file), env, flags);
}

/** The configuration given the file's values: every key checked against its schema, each with where its value came from. */
export function resolveConfig(fileValues: FileValues, env: NodeJS.ProcessEnv = process.env, flags: Record<string, unknown> = {}): LoadedConfig {
  const config: Record<string, Record<string, unknown>> = {};
  const sources: Record<string, ValueSource> = {};
  for (const [section, keys] of Object.entries(CONFIG_KEYS as Record<string, Record<string, KeySpec>>)) {
    config[section] = {};
    for (const [key, spec] of Object.entries(keys)) {
      const name = `${section}.${key}`;
      let value: unknown = spec.default;
      let source: ValueSource = 'default';
      if (fileValues[section] && key in fileValues[section]) {
        value = fileValues[section][key];
        // The first start writes every key with its default: such a line is the default, not a choice made in the file.
        // (Compared as canonical JSON: TOML tables parse to objects of another prototype than the defaults'.)
        source = canonicalJson(value) === canonicalJson(spec.default) ? 'default' : 'file';
      }
      const envKey = envName(section, key);
      if (env[envKey] !== undefined) {
        value = fromEnv(spec, env[envKey]);
        source = `env ${envKey}`;
      }
      if (flags[name] !== undefined) {
        value = flags[name];
        source = `flag ${name}`;
      }
      const parsed = spec.schema.safeParse(value);
      if (!parsed.success) {
        throw new Error(`config ${name} (from ${source}): ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      }
      config[section]![key] = parsed.data;
      sources[name] = source;
    }
  }
  return { config: config as GateConfig, sources };
}
