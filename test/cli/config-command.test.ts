import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, tempHome } from '../harness/gate-process.js';
import { configLines } from '../../src/cli/config-command.js';

/** `gate config` as an operator reads it: true sources, only what differs, a pipe closed early, a narrow terminal. */
const gateCli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

/** A home whose gate.toml is the one a first start writes (every key, its default), with one line changed. */
function homeWithOneChange(): string {
  const home = tempHome();
  mkdirSync(home, { recursive: true });
  // `gate config` on a home with no file prints defaults; write the file a first start would, then change one value.
  const fresh = gateCli(['config', '--home', home, '--json']);
  const values = JSON.parse(fresh.stdout).values as Array<{ key: string; value: unknown }>;
  const sections = new Map<string, string[]>();
  for (const v of values) {
    const [section, key] = v.key.split('.') as [string, string];
    const value = v.key === 'journal.cache_mb' ? 32 : v.value;
    sections.set(section, [...(sections.get(section) ?? []), `${key} = ${tomlValue(value)}`]);
  }
  writeFileSync(join(home, 'gate.toml'), [...sections].map(([s, lines]) => `[${s}]\n${lines.join('\n')}\n`).join('\n'));
  return home;
}

function tomlValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (typeof v === 'object' && v !== null) return `{ ${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)} = ${tomlValue(x)}`).join(', ')} }`;
  return String(v);
}

describe('gate config', () => {
  it('names a value the file repeats from the defaults "default", one it changes "file", and the environment "env"', () => {
    const home = homeWithOneChange();
    const out = gateCli(['config', '--home', home, '--json'], { GATE_SERVER_PORT: '9911' });
    expect(out.status, out.stderr).toBe(0);
    const source = Object.fromEntries(JSON.parse(out.stdout).values.map((v: { key: string; source: string }) => [v.key, v.source]));
    expect(source['journal.synchronous']).toBe('default');
    expect(source['journal.cache_mb']).toBe('file');
    expect(source['server.port']).toBe('env GATE_SERVER_PORT');
  });

  it('--diff prints only the values that differ from the defaults', () => {
    const home = homeWithOneChange();
    const out = gateCli(['config', '--home', home, '--diff'], { GATE_SERVER_PORT: '9911' });
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(lines.map((l) => l.split(' = ')[0])).toEqual(['server.port', 'journal.cache_mb']);
    expect(out.stdout).toContain("this command's environment");
  });

  it('a reader that closes the pipe at once ends it quietly (no EPIPE stack)', () => {
    const out = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" config --home "${tempHome()}" | true`], { encoding: 'utf8' });
    expect(out.stderr).not.toMatch(/EPIPE|Error|at /);
  });

  it('on a terminal of 80 columns every line fits, long values cut with an ellipsis', () => {
    const rows = [
      { key: 'server.port', value: 8480, source: 'default' },
      { key: 'review.quorum_profiles', value: { standard: { k: { 'T-1': 1, 'T-2': 2, 'T-3': 2, 'T-4': 1, 'T-5': 2 } } }, source: 'env GATE_REVIEW_QUORUM_PROFILES' },
    ];
    const lines = configLines(rows, 80);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[1]).toContain('…');
    expect(lines[0]!.indexOf('#')).toBe(lines[1]!.indexOf('#'));
    // A pipe gets whole values.
    expect(configLines(rows)[1]).toContain('"T-5":2}}}');
  });
});
