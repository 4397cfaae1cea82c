import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CLI, socketRpc, tempHome } from '../harness/gate-process.js';

/**
 * Starts `gate serve` with the log in `format`, waits until it answers on its socket (its
 * start is over), stops it, and answers what it wrote to stdout, and to stderr before the
 * stop's own first line: one process writes its log in order, so whatever its start said,
 * written at once or flushed later, comes before the line that says it is shutting down.
 */
async function startAndStop(format: 'pretty' | 'json', homeFlag: boolean): Promise<{ home: string; stdout: string[]; stderr: string[] }> {
  const home = tempHome();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...(homeFlag ? ['--home', home] : [])], {
    env: { ...process.env, GATE_HOME: home, GATE_LOG_FORMAT: format },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stderrDone = new Promise((resolve) => createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l)).once('close', resolve));
  const stdoutDone = new Promise((resolve) => createInterface({ input: child.stdout! }).on('line', (l) => stdout.push(l)).once('close', resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`gate exited ${code}: ${stderr.join('\n')}`)));
      child.stdout!.once('data', () => resolve());
    });
    expect((await socketRpc(join(home, 'gate.sock'), 'gv.ping')).result.pong).toBe(true);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  await Promise.all([stdoutDone, stderrDone]);
  const stopping = stderr.findIndex((l) => l.includes('shutting down (SIGTERM)'));
  expect(stopping, stderr.join('\n')).toBeGreaterThanOrEqual(0);
  return { home, stdout, stderr: stderr.slice(0, stopping) };
}

describe('the start line (issue 35)', () => {
  it('is one line at a terminal: address, socket, deployment, home and where to go next; the log adds nothing at info', async () => {
    const { home, stdout, stderr } = await startAndStop('pretty', false);
    expect(stderr).toEqual([]);
    expect(stdout).toHaveLength(1);
    const m = /^gate listening on (http:\/\/127\.0\.0\.1:\d+) socket (\S+) deployment (\S{43}) home (\S+); next: gate call gv\.ping, or open (\S+)$/.exec(stdout[0]!);
    expect(m, stdout[0]).not.toBeNull();
    expect(m![2]).toBe(`${home}/gate.sock`);
    expect(m![4]).toBe(home);
    expect(m![5]).toBe(`${m![1]}/app`);
  });

  it('names --home in the next step when the start was given one; a collected (JSON) log still says listening, with the home', async () => {
    const { home, stdout, stderr } = await startAndStop('json', true);
    expect(stdout).toHaveLength(1);
    expect(stdout[0]).toContain(` home ${home}; next: gate call gv.ping --home ${home}, or open http://127.0.0.1:`);
    const listening = stderr.map((l) => JSON.parse(l)).filter((l) => l.msg === 'listening');
    expect(listening).toEqual([expect.objectContaining({ level: 'info', home, socket: `${home}/gate.sock` })]);
    // The vector index's start check found nothing to do: a debug line, not shown at info.
    expect(stderr.filter((l) => l.includes('searchable vectors'))).toEqual([]);
  });
});
