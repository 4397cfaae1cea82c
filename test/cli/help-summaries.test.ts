import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI } from '../harness/gate-process.js';

/** `gate ARGS` as a person runs it, on a pipe, with COLUMNS as a terminal of that width sets it. */
const gate = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, COLUMNS: '80', ...env } });

/** The top-level commands and their one-line summaries, as main.ts declares them. */
const SUMMARIES: Record<string, string> = {
  serve: 'start the gate: HTTP and the local socket',
  call: 'send one verb over the local socket, print the answer',
  verify: 'verify the journal chain and its signatures offline',
  backup: 'copy a home, running or not, into a verified backup',
  restore: 'prepare a home from a backup',
  proof: "check the journal's proofs offline",
  space: 'create and list spaces (operator)',
  config: 'print the effective configuration and its sources',
  plugin: 'an MCP server over stdio for an agent harness',
  runner: 'host crews: run their command for each routed question',
  people: 'add, list, reset or remove people (operator)',
  vacuum: "give a stopped gate's free pages back to the disk",
  key: "rotate the deployment's signing key",
  operator: 'operator keys and operator-signed calls',
  grant: 'per-space capabilities of a principal (operator)',
  sign: 'sign a row as a person, signed in in your browser',
  org: 'the organization gate, on PostgreSQL',
};

describe('gate --help (issue 35)', () => {
  it('lists every command on one line with its summary, within 80 columns', () => {
    const out = gate(['--help']);
    expect(out.status).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    const commands = lines.slice(lines.indexOf('Commands:') + 1).filter((l) => l.trim() !== '');
    for (const [name, summary] of Object.entries(SUMMARIES)) {
      // One line: the name (and its arguments), then the summary whole, nothing after it.
      expect(commands.filter((l) => new RegExp(`^  ${name}( [<[][^ ]+)* +${summary.replace(/[()]/g, '\\$&')}$`).test(l)), name).toHaveLength(1);
    }
    // Every line of the list starts a command: no description spilled onto a line of its own.
    expect(commands.every((l) => /^  \S/.test(l))).toBe(true);
    expect(commands).toHaveLength(Object.keys(SUMMARIES).length + 1);
  });

  it("a command's own --help keeps its full description, wrapped at word boundaries within the width", () => {
    const out = gate(['sign', '--help']);
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
    const flowing = out.stdout.replace(/\s+/g, ' ');
    for (const part of [
      "Sign a row as a person: signs you in at the gate's own sign-in provider in your browser (authorization code with PKCE, the code coming back to a loopback listener of this command)",
      'Approving over findings that held the row asks you to type approve (with --yes: --over-findings).',
      'Exit 0 when signed, 1 on a refusal (sign-in or gv.sign), 2 when no gate answers, 3 on a bad argument, 4 when the gate gave no answer in time.',
    ]) {
      expect(flowing).toContain(part);
    }
    // The description is one paragraph then the exit statuses: no line cut short mid-sentence.
    const description = out.stdout.split('\n\n')[1]!.split('\n');
    expect(description.slice(0, -1).every((l) => l.length > 60), description.join('\n')).toBe(true);
    // Wider terminals get wider help, up to 100 columns.
    const wide = gate(['sign', '--help'], { COLUMNS: '200' }).stdout.split('\n');
    expect(Math.max(...wide.map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(Math.max(...wide.map((l) => l.length))).toBeGreaterThan(80);
  });
});
