import { spawn } from 'node:child_process';

export interface CommandOutcome {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  /** Why the runner stopped it, when it did. */
  stopped: 'no_progress' | 'withdrawn' | 'shutdown' | null;
  /** stdout, at most 1 MiB (the rest dropped). */
  stdout: string;
  /** The last 8 KiB of stderr, for the runner's log line. */
  stderrTail: string;
  ms: number;
}

export interface CommandOptions {
  cwd: string;
  env: Record<string, string>;
  /** Stopped when it writes nothing for this long (0: never). */
  progressMs: number;
  /** Between SIGTERM and SIGKILL when stopped. */
  graceMs: number;
}

const STDOUT_MAX = 1 << 20;
const STDERR_TAIL = 8192;

/**
 * One run of a crew's command line (`/bin/sh -c`), in its own process group so a stop
 * reaches everything it started: SIGTERM, then SIGKILL after the grace. Any output counts
 * as progress.
 */
export class CommandRun {
  readonly outcome: Promise<CommandOutcome>;
  private stoppedFor: CommandOutcome['stopped'] = null;
  private readonly pid: number | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private exited = false;

  constructor(
    command: string,
    private readonly options: CommandOptions,
  ) {
    const started = performance.now();
    const child = spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.pid = child.pid;
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < STDOUT_MAX) stdout += chunk.slice(0, STDOUT_MAX - stdout.length);
      this.progressed();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
      this.progressed();
    });
    this.progressed();
    this.outcome = new Promise((resolve) => {
      const done = (code: number | null) => {
        this.exited = true;
        clearTimeout(this.progressTimer);
        clearTimeout(this.killTimer);
        resolve({ code, stopped: this.stoppedFor, stdout, stderrTail: stderr, ms: Math.round(performance.now() - started) });
      };
      child.once('error', () => done(127));
      child.once('close', (code) => done(code));
    });
  }

  private progressed(): void {
    if (this.options.progressMs <= 0 || this.exited) return;
    clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(() => this.stop('no_progress'), this.options.progressMs);
  }

  /** Asks the command's process group to end, and ends it after the grace. */
  stop(why: Exclude<CommandOutcome['stopped'], null>): void {
    if (this.exited || this.stoppedFor !== null || this.pid === undefined) return;
    this.stoppedFor = why;
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-this.pid!, s);
      } catch {
        // Already gone.
      }
    };
    signal('SIGTERM');
    this.killTimer = setTimeout(() => signal('SIGKILL'), this.options.graceMs);
  }
}
