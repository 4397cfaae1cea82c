import { existsSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import { loadConfig } from '../config/load-config.js';
import { shownValue } from '../config/settings-display.js';

interface ConfigRow {
  key: string;
  value: unknown;
  source: string;
}

/**
 * `gate config`: the configuration this command's environment and the home's gate.toml
 * make. It is not read from a running gate, whose environment may differ.
 */
export function configCommand(options: { home?: string; json?: boolean; diff?: boolean }): void {
  const paths = resolveHome(options.home);
  let loaded;
  try {
    loaded = loadConfig(paths.config);
  } catch (error) {
    process.stderr.write(`gate config: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const all: ConfigRow[] = Object.entries(loaded.config).flatMap(([section, keys]) =>
    Object.entries(keys as Record<string, unknown>).map(([key, value]) => ({
      key: `${section}.${key}`,
      // A password in a URL (org.database_url) is never printed; secrets themselves are named by their variables only.
      value: shownValue(value),
      source: loaded.sources[`${section}.${key}`]!,
    })),
  );
  const rows = options.diff ? all.filter((r) => r.source !== 'default') : all;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ file: paths.config, exists: existsSync(paths.config), values: rows }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`# ${paths.config}${existsSync(paths.config) ? '' : ' (not created yet: defaults apply)'}\n`);
  process.stdout.write("# as this command's environment and the file make it (a running gate's environment may differ)\n");
  if (options.diff && rows.length === 0) process.stdout.write('# every value is its default\n');
  for (const line of configLines(rows, process.stdout.isTTY ? process.stdout.columns : undefined)) process.stdout.write(`${line}\n`);
}

/**
 * `key = value  # source`, sources aligned. On a terminal of `columns`, a line that would
 * wrap has its value cut with an ellipsis (`--json` prints every value whole); a pipe gets
 * whole lines.
 */
const ALIGN_AT = 60;

export function configLines(rows: readonly ConfigRow[], columns?: number): string[] {
  const texts = rows.map((r) => `${r.key} = ${JSON.stringify(r.value)}`);
  const sourceWidth = Math.max(0, ...rows.map((r) => r.source.length));
  // Sources line up past most values; the few long tables do not push every line wide.
  let width = Math.min(ALIGN_AT, Math.max(0, ...texts.map((t) => t.length)));
  if (columns !== undefined) width = Math.max(20, Math.min(width, columns - sourceWidth - 4));
  return rows.map((r, i) => {
    let text = texts[i]!;
    if (columns !== undefined && text.length > columns - sourceWidth - 4) text = `${text.slice(0, Math.max(width, columns - sourceWidth - 4) - 1)}…`;
    return `${text.padEnd(width)}  # ${r.source}`;
  });
}
