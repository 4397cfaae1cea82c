import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI, KEYS_PROMOTE, tempHome } from '../harness/gate-process.js';

export type LogLine = Record<string, unknown> & { level: string; msg: string; time: string };

/** Every stderr line as JSON (throws on one that is not: JSON is what a pipe gets). */
export const parsed = (lines: readonly string[]): LogLine[] => lines.map((l) => JSON.parse(l) as LogLine);

/** The log is written asynchronously: a request's line lands just after its answer. */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no log line for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `gate serve` with extra arguments (GateProcess passes none), stderr collected by line. */
export async function serveWith(args: string[], env: Record<string, string> = {}, home = tempHome()) {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--home', home, '--port', '0', ...args], {
    env: { ...process.env, ...KEYS_PROMOTE, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`gate exited ${code}: ${stderr.join('\n')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^gate listening on (\S+) socket/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  return {
    url,
    home,
    stderr,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
