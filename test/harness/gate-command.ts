import { spawn } from 'node:child_process';
import { CLI } from './gate-process.js';

export interface CommandRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * The real `gate` CLI run to its end as a person types it: `stdin` written and closed (an
 * empty line when none, as a terminal with nothing typed; `env` added to this process's). Resolved on `close`, once both
 * pipes are drained, so no output is lost to an early `exit`.
 */
export function gateCommand(args: string[], stdin = '', env: Record<string, string> = {}): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    // A command that exits without reading stdin closes the pipe under the write: not an error here.
    child.stdin.on('error', () => undefined);
    child.once('close', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
  });
}
