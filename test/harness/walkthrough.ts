import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { CLI, ROOT } from './gate-process.js';
import { launchBrowser, type TestBrowser } from './browser.js';

/**
 * A guide in `docs/` run as written, as `test/cli/first-steps.test.ts` runs the README's first
 * steps: the commands of its marked block (`<!-- guide:NAME -->` around a ```sh block; a
 * here-document whole, as written), in order, each in bash with `gate` as the built CLI. Only what a person supplies is substituted:
 *
 * - ports (`8480` and the like, replaced everywhere in the command by free ones) and paths
 *   outside the home (`/tmp/...`, by the test's own);
 * - an export of a path under `~/` (a temporary directory instead of the real home);
 * - an export of a value a step printed (`gk_...`, `key:...`, `sha256:...`, or the test's own
 *   `printed` rule);
 * - the password typed to `gate people add` (sent with `--password-stdin`) and the `y` typed to
 *   `gate sign` and `gate org review`;
 * - the browser: the desktop's opener (`xdg-open`) is a script that notes the address, and
 *   Chromium does there what the person does (signs in for `gate sign`, `gate org sign-in` and
 *   `gate org review`, or the test's `browse`).
 *
 * A command ending in `&` runs in the background until the walk is closed (or `kill %N && wait
 * %N` stops it, numbered as bash numbers jobs); the next step waits for the line `ready` names
 * for it. A step that exits non-zero, or prints a JSON-RPC error,
 * fails the walk with the command and its output.
 */
/** The commands that sign a person in in the browser (gate sign at a gate; gate org sign-in and review at the issuer an organization trusts). */
const SIGNS_IN = /^gate (sign|org sign-in|org review) /;

export function guideCommands(file: string, name: string): string[] {
  return markedCommands(file, `guide:${name}`);
}

/**
 * The commands of the ```sh block between `<!-- MARKER -->` and `<!-- /MARKER -->` in `file`
 * (a path from the checkout's root), as a person pastes them: comments dropped, continued
 * lines joined, a here-document whole. The README's first steps and the guides are read so.
 */
export function markedCommands(file: string, marker: string): string[] {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  const block = new RegExp(`<!-- ${marker} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n<!-- /${marker} -->`).exec(text)?.[1];
  if (block === undefined) throw new Error(`${file} has no ${marker} block`);
  const commands: string[] = [];
  let pending = '';
  let heredoc: string | undefined;
  for (const raw of block.split('\n')) {
    // A here-document's lines go to the command as written, up to its delimiter.
    if (heredoc !== undefined) {
      commands[commands.length - 1] += `\n${raw}`;
      if (raw === heredoc) heredoc = undefined;
      continue;
    }
    const line = raw.replace(/\s+#\s.*$/, '').replace(/^\s*#.*$/, '');
    if (line.trim() === '') continue;
    pending += line.trimEnd();
    if (pending.endsWith('\\')) pending = `${pending.slice(0, -1).trimEnd()} `;
    else {
      commands.push(pending.trim());
      heredoc = /<<-?\s*'?(\w+)'?/.exec(pending)?.[1];
      pending = '';
    }
  }
  return commands;
}

export interface Ran {
  command: string;
  code: number | null;
  out: string;
  err: string;
  /** The JSON object the command printed last, if any. */
  json: any;
}

export interface WalkOptions {
  /** Ports as the guide writes them, and the free ones the test uses instead. */
  ports: Record<string, number>;
  /** Paths outside `~` as the guide writes them, and the test's own (so runs never share one). */
  paths?: Record<string, string>;
  /** The password a person types (to `gate people add`, at the sign-in page). */
  password: string;
  /** A background command's readiness: the pattern of the line (stdout or stderr) it is awaited for. */
  ready(command: string): RegExp;
  /** Who signs in for this `gate sign`, `gate org sign-in` or `gate org review` command (the email typed at the sign-in page). */
  signer?(command: string): string;
  /** What the person does at an address a command opened (other than `gate sign`'s sign-in). */
  browse?(address: string, page: Page, command: string): Promise<void>;
  /** The value an export takes for `NAME=VALUE` as written (`undefined`: the default rules). */
  printed?(name: string, value: string, previous: Ran[]): string | undefined;
}

export class Walkthrough {
  readonly dir = mkdtempSync(join(tmpdir(), 'guide-'));
  readonly env: Record<string, string>;
  readonly ran: Ran[] = [];
  private readonly background: ChildProcess[] = [];
  private readonly jobs = new Map<number, ChildProcess>();
  private browser: TestBrowser | undefined;
  private readonly opened: string;

  constructor(private readonly options: WalkOptions) {
    chmodSync(this.dir, 0o755);
    const bin = join(this.dir, 'bin');
    mkdirSync(bin);
    mkdirSync(join(this.dir, 'home'));
    this.opened = join(this.dir, 'opened');
    // The desktop's opener: notes the address instead of opening a browser of the host's.
    // Written beside and renamed into place: the test polls for the file, and a file created by
    // the shell's redirection but not yet written read as an empty address (under load, once).
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${this.opened}.part' && mv '${this.opened}.part' '${this.opened}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    this.env = { ...(process.env as Record<string, string>), PATH: `${bin}:${process.env['PATH']}` };
    for (const name of Object.keys(this.env)) if (name.startsWith('GATE_')) delete this.env[name];
  }

  /** A path as the guide writes it (`~/x`), where the test keeps it. */
  home(path: string): string {
    return path.startsWith('~/') ? join(this.dir, 'home', path.slice(2)) : path;
  }

  private bash(command: string, stdin = ''): ChildProcess {
    const alias = `gate() { '${CLI}' "$@"; }\nexport HOME='${join(this.dir, 'home')}'`;
    const child = spawn('bash', ['-c', `${alias}\n${command}`], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    // A command that never reads what is typed ends before it arrives: no matter.
    child.stdin!.on('error', () => {});
    child.stdin!.end(stdin);
    return child;
  }

  private finished(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (c) => (out += c));
      child.stderr!.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, out, err }));
    });
  }

  private async page(): Promise<Page> {
    this.browser ??= await launchBrowser();
    return this.browser.newPage();
  }

  /** What the person does at an address the command opened while it runs. */
  private async atOpened(command: string, address: string): Promise<void> {
    const page = await this.page();
    try {
      if (new URL(address).pathname === '/oauth/authorize' && SIGNS_IN.test(command)) {
        const email = this.options.signer?.(command);
        if (email === undefined) throw new Error(`no signer for ${command}`);
        await page.goto(address);
        await page.fill('#email', email);
        await page.fill('#password', this.options.password);
        await page.click('button[type=submit]');
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
        const said = await page.textContent('body');
        if (!said?.includes('Signed in.')) throw new Error(`signing in for ${command} ended on: ${said}`);
      } else {
        if (this.options.browse === undefined) throw new Error(`${command} opened ${address} and the test does nothing there`);
        await this.options.browse(address, page, command);
      }
    } finally {
      await page.close();
    }
  }

  private value(name: string, value: string): string {
    const own = this.options.printed?.(name, value, this.ran);
    if (own !== undefined) return own;
    if (value.startsWith('~/')) return this.home(value);
    const last = this.ran.at(-1)?.json;
    const result = last?.result ?? last;
    if (value === 'gk_...') return String(result?.key);
    if (value === 'key:...') return `key:${result?.key_id}`;
    if (value === 'sha256:...') return String(result?.artifact_id);
    if (value.includes('...')) throw new Error(`the test does not know what to put for ${name}=${value}`);
    return value;
  }

  /** Runs the commands in order; the first that fails throws with its output. */
  async run(commands: string[]): Promise<Ran[]> {
    for (const written of commands) {
      let command = written;
      for (const [as, port] of Object.entries(this.options.ports)) command = command.replaceAll(as, String(port));
      for (const [as, path] of Object.entries(this.options.paths ?? {})) command = command.replaceAll(as, path);
      const exported = /^export (.+)$/.exec(command);
      if (exported) {
        for (const [, name, value] of exported[1]!.matchAll(/(\w+)=(\S+)/g)) {
          this.env[name!] = this.value(name!, value!);
          if (this.env[name!] === 'undefined') throw new Error(`${written}: the step before printed no value for ${name}:\n${JSON.stringify(this.ran.at(-1))}`);
        }
        continue;
      }
      if (command.endsWith('&')) {
        await this.start(command.replace(/\s*&$/, ''));
        continue;
      }
      // The shell's job control: `kill %N && wait %N` stops a background command and waits for it.
      const job = /^kill %(\d+)(?:\s*(?:&&|;)\s*wait(?: %\1)?)?$/.exec(command);
      if (job) {
        const child = this.jobs.get(Number(job[1]));
        if (child === undefined) throw new Error(`${written}: no job %${job[1]} runs`);
        await this.stop(child);
        this.jobs.delete(Number(job[1]));
        continue;
      }
      let stdin = '';
      if (/^gate people add /.test(command)) {
        command = `${command} --password-stdin`;
        stdin = `${this.options.password}\n`;
      } else if (/^gate (sign|org review) /.test(command)) stdin = 'y\n';
      rmSync(this.opened, { force: true });
      const running = this.finished(this.bash(command, stdin));
      let done = false;
      void running.then(() => (done = true));
      // While it runs, the person acts at whatever address it opened.
      const acting = (async () => {
        while (!done) {
          if (existsSync(this.opened)) {
            const address = readFileSync(this.opened, 'utf8');
            rmSync(this.opened);
            await this.atOpened(written, address);
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        if (existsSync(this.opened)) {
          const address = readFileSync(this.opened, 'utf8');
          rmSync(this.opened);
          await this.atOpened(written, address);
        }
      })();
      const result = await running;
      await acting;
      // The JSON it printed last: from the first line starting with `{` that parses to the end.
      let json: any;
      const lines = result.out.split('\n');
      for (let i = 0; i < lines.length && json === undefined; i++) {
        if (!lines[i]!.startsWith('{')) continue;
        try {
          json = JSON.parse(lines.slice(i).join('\n'));
        } catch {
          json = undefined;
        }
      }
      const ran = { command, ...result, json };
      this.ran.push(ran);
      // A JSON-RPC error printed by a command that exits 0 (curl) is a failed step too.
      if (result.code !== 0 || (json?.jsonrpc === '2.0' && json.error !== undefined)) throw new Error(`guide step failed (exit ${result.code}): ${command}\n--- stdout\n${result.out.trimEnd()}\n--- stderr\n${result.err.trimEnd()}`);
    }
    return this.ran;
  }

  private async start(command: string): Promise<void> {
    const child = this.bash(command);
    this.background.push(child);
    // As bash numbers jobs: one more than the highest still in its table.
    this.jobs.set(Math.max(0, ...this.jobs.keys()) + 1, child);
    const ready = this.options.ready(command);
    let said = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command}: no line ${ready} within 60 s:\n${said}`)), 60_000);
      const hear = (c: Buffer) => {
        said += c;
        if (said.split('\n').some((line) => ready.test(line))) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', hear);
      child.stderr!.on('data', hear);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} stopped (exit ${code}):\n${said}`));
      });
    });
    child.removeAllListeners('exit');
  }

  /** The runs of commands that start with `prefix`, in order. */
  all(prefix: string): Ran[] {
    return this.ran.filter((r) => r.command.startsWith(prefix));
  }

  /** Stops the background commands (each whole process group), then the browser. */
  async close(): Promise<void> {
    await this.browser?.close();
    for (const child of this.background.reverse()) await this.stop(child);
  }

  /** SIGTERM to a background command's whole process group (the gate is bash's child), then its exit. */
  private async stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  }
}
