import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI } from './gate-process.js';

/** A `gate` command run to its end without blocking the event loop (a blocked loop strands the harness's pooled connections). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The real `gate runner` on `key`, its state kept in `stateDir` (never the tester's home),
 * each line of its log pushed to `log`.
 */
export function startGateRunner(options: { url: string; key: string; stateDir: string; log: string[] }): ChildProcess {
  const child = spawn(
    process.execPath,
    [CLI, 'runner', '--url', options.url, '--key-env', 'GATE_RUNNER_KEY', '--crews', '2', '--members', '8', '--state-dir', options.stateDir],
    { env: { ...process.env, GATE_RUNNER_KEY: options.key }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  createInterface({ input: child.stderr! }).on('line', (line) => options.log.push(line));
  return child;
}

/** SIGTERM, then its exit code once it ended. */
export async function stopGateRunner(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}
