import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { RefusalCode } from '../domain/runner-hello.js';
import { isInside, type RunnerSettings } from '../domain/runner-settings.js';

export interface Refusal {
  field: string;
  code: RefusalCode;
}

export interface LocalFacts {
  node: string;
  claude: { path: string; found: boolean };
  plugin: { path: string; mcp: boolean };
  workdir: { path: string; writable: boolean };
  git: string;
  home: string;
}

/** The first file named `command` on PATH (or the path itself when it has a slash), or null. */
export function findOnPath(command: string): string | null {
  if (command.includes('/')) return isExecutable(command) ? command : null;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `<program> --version`'s first MAJOR.MINOR.PATCH, or empty when it has none or does not answer in 5 s. */
export function versionOf(program: string): string {
  try {
    const out = execFileSync(program, ['--version'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    return /\d+\.\d+\.\d+/.exec(out)?.[0] ?? '';
  } catch {
    return '';
  }
}

const writable = (dir: string): boolean => {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
};

/** The program a shell command line starts: its first word. */
const programOf = (command: string) => command.trim().split(/\s+/)[0] ?? '';

/** Whether a plugin directory's .mcp.json names this gate's tool server (a server called `gate`). */
function namesGate(mcpJson: string): boolean {
  try {
    const parsed = JSON.parse(readFileSync(mcpJson, 'utf8')) as { mcpServers?: Record<string, unknown> };
    return parsed.mcpServers !== undefined && Object.hasOwn(parsed.mcpServers, 'gate');
  } catch {
    return false;
  }
}

/**
 * What this host is, told as it is (the hello's `facts`, docs/protocol.md#gvrunner_hello), and what of the settings it
 * cannot use (`refused`, at most 16): the runner starts no command while any stands.
 */
export function localFacts(settings: RunnerSettings | null, harness: string, runtime: { git: string }): { facts: LocalFacts; refused: Refusal[] } {
  const home = homedir();
  const refused: Refusal[] = [];
  const claudePath = findOnPath(harness);
  const root = settings?.workdir_root;
  const rootWritable = root !== undefined && !isInside(root, home) && writable(root);
  const plugin = settings?.plugin_dir;
  const mcpJson = plugin === undefined ? null : join(plugin, '.mcp.json');
  const facts: LocalFacts = {
    node: process.versions.node,
    claude: { path: claudePath ?? '', found: claudePath !== null },
    plugin: { path: plugin ?? '', mcp: mcpJson !== null && existsSync(mcpJson) },
    workdir: { path: root ?? '', writable: rootWritable },
    git: runtime.git,
    home,
  };
  if (settings === null) return { facts, refused };
  if (settings.command === undefined) refused.push({ field: 'command', code: 'missing' });
  else if (findOnPath(programOf(settings.command)) === null) refused.push({ field: 'command', code: 'not_found' });
  if (root === undefined) refused.push({ field: 'workdir_root', code: 'missing' });
  else if (isInside(root, home)) refused.push({ field: 'workdir_root', code: 'inside_home' });
  else if (!rootWritable) refused.push({ field: 'workdir_root', code: 'not_writable' });
  if (plugin !== undefined) {
    if (!existsSync(plugin)) refused.push({ field: 'plugin_dir', code: 'not_found' });
    else if (!existsSync(mcpJson!)) refused.push({ field: 'plugin_dir', code: 'no_mcp_json' });
    else if (!namesGate(mcpJson!)) refused.push({ field: 'plugin_dir', code: 'not_the_plugin' });
    else if (root !== undefined && isInside(plugin, root)) refused.push({ field: 'plugin_dir', code: 'inside_workdir' });
  }
  const repository = settings.repository;
  if (repository !== null && isAbsolute(repository)) {
    if (!existsSync(repository)) refused.push({ field: 'repository', code: 'not_found' });
    else if (!existsSync(join(repository, '.git')) && !existsSync(join(repository, 'HEAD'))) refused.push({ field: 'repository', code: 'not_a_git_checkout' });
    else if (root !== undefined && isInside(repository, root)) refused.push({ field: 'repository', code: 'inside_workdir' });
  }
  for (const [i, path] of (settings.managed_settings ?? []).entries()) {
    if (!existsSync(path)) refused.push({ field: `managed_settings.${i}`, code: 'missing' });
    else if (root !== undefined && isInside(path, root)) refused.push({ field: `managed_settings.${i}`, code: 'inside_workdir' });
  }
  return { facts, refused: refused.slice(0, 16) };
}

