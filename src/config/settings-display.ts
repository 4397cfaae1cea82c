import { CONFIG_KEYS, type GateConfig } from './keys.js';

/**
 * A configured value as it may be shown or journaled. The configuration names secrets only
 * by the environment variable holding them, but a URL may still carry a password
 * (`postgres://user:pass@host`): it is shown as `***`.
 */
export function shownValue(value: unknown): unknown {
  if (typeof value === 'string') return withoutPassword(value);
  if (Array.isArray(value)) return value.map(shownValue);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shownValue(v)]));
  return value;
}

function withoutPassword(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  try {
    const url = new URL(text);
    if (url.password === '') return text;
    url.password = '***';
    return url.toString();
  } catch {
    return text;
  }
}

export interface SecretName {
  /** The configuration key naming the variable (`org.api_key_env`, `review.backends.NAME.api_key_env`). */
  key: string;
  variable: string;
  /** Whether the variable is set in the gate's environment; its value is never read out. */
  set: boolean;
}

/** Every environment variable the configuration names as holding a secret, and whether the gate's environment sets it. */
export function secretNames(config: GateConfig, env: NodeJS.ProcessEnv = process.env): SecretName[] {
  const named: Array<{ key: string; variable: string }> = [];
  for (const [section, keys] of Object.entries(CONFIG_KEYS)) {
    for (const key of Object.keys(keys)) {
      const value = (config as Record<string, Record<string, unknown>>)[section]![key];
      if (key.endsWith('_env') && typeof value === 'string' && value !== '') named.push({ key: `${section}.${key}`, variable: value });
    }
  }
  for (const [name, backend] of Object.entries(config.review.backends)) {
    const variable = (backend as { api_key_env?: unknown }).api_key_env;
    if (typeof variable === 'string' && variable !== '') named.push({ key: `review.backends.${name}.api_key_env`, variable });
  }
  return named.map((n) => ({ ...n, set: (env[n.variable] ?? '') !== '' }));
}
