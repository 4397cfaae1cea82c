import { existsSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import { loadConfig } from '../config/load-config.js';

export function configCommand(options: { home?: string; json?: boolean }): void {
  const paths = resolveHome(options.home);
  let loaded;
  try {
    loaded = loadConfig(paths.config);
  } catch (error) {
    process.stderr.write(`gate config: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const rows = Object.entries(loaded.config).flatMap(([section, keys]) =>
    Object.entries(keys as Record<string, unknown>).map(([key, value]) => ({
      key: `${section}.${key}`,
      value,
      source: loaded.sources[`${section}.${key}`]!,
    })),
  );
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ file: paths.config, exists: existsSync(paths.config), values: rows }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`# ${paths.config}${existsSync(paths.config) ? '' : ' (not created yet: defaults apply)'}\n`);
  const width = Math.max(...rows.map((r) => `${r.key} = ${JSON.stringify(r.value)}`.length));
  for (const r of rows) {
    const text = `${r.key} = ${JSON.stringify(r.value)}`;
    process.stdout.write(`${text.padEnd(width)}  # ${r.source}\n`);
  }
}
