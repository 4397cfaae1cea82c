import { stringify } from 'smol-toml';
import { CONFIG_KEYS, type KeySpec } from './keys.js';
import { envName } from './load-config.js';

/**
 * gate.toml as written on first start: every key present with its default and what it does.
 * With `values` (gv.settings_save), each key the table names is written with that value instead.
 */
export function configTemplate(values: Record<string, Record<string, unknown>> = {}): string {
  const lines = [
    '# Gate configuration. Every key is present with its default.',
    '# Each key can also be set by the environment variable GATE_<SECTION>_<KEY>, which wins over this file.',
    '# `gate config` prints the effective configuration and where each value came from.',
    '',
  ];
  for (const [section, keys] of Object.entries(CONFIG_KEYS as Record<string, Record<string, KeySpec>>)) {
    lines.push(`[${section}]`);
    const entries = Object.entries(keys);
    // TOML puts a section's plain keys before its sub-tables, so table-valued keys come last.
    const valueOf = (key: string, spec: KeySpec) => (values[section] !== undefined && key in values[section] ? values[section][key] : spec.default);
    for (const [key, spec] of entries.filter(([, s]) => !isTable(s.default))) {
      lines.push(`# ${spec.doc}`, `# env: ${envName(section, key)}; default: ${JSON.stringify(spec.default)}`);
      lines.push(stringify({ [key]: valueOf(key, spec) }).trim());
    }
    for (const [key, spec] of entries.filter(([, s]) => isTable(s.default))) {
      lines.push('', `# ${spec.doc}`, `# env: ${envName(section, key)} (as JSON)`);
      lines.push(stringify({ [section]: { [key]: valueOf(key, spec) } }).trim());
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** A table-valued key (a TOML sub-table such as [review.backends.NAME]), not a plain value. */
export const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
