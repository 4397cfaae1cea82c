import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, tempHome } from '../harness/gate-process.js';
import { freePort } from '../harness/sign-in.js';
import { launchBrowser, type TestBrowser } from '../harness/browser.js';
import { markedCommands } from '../harness/walkthrough.js';

/**
 * README "First steps", run as written (issue 14 item 4): the commands between the
 * first-steps markers, in order, each in bash with `gate` as the README's alias. Only what
 * a person supplies is substituted: the home and the port, the values a step printed
 * (`gk_...`, `key:...`, `sha256:...` in an export), the password typed (`--password-stdin`
 * and its line), the `y` typed to `gate sign`, and the browser: the desktop's opener is a
 * script that notes the address `gate sign` asks it to open, and Chromium signs in there.
 */
const PASSWORD = 'correct horse battery staple';

const readmeSteps = () => markedCommands('README.md', 'first-steps');

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

let serve: ChildProcess | undefined;
let browser: TestBrowser | undefined;
afterAll(async () => {
  await browser?.close();
  if (serve !== undefined && serve.exitCode === null) {
    // The gate is bash's child (`gate` is a shell function): stop the whole group, or the gate outlives the test.
    const exited = new Promise((resolve) => serve!.once('exit', resolve));
    process.kill(-serve.pid!, 'SIGTERM');
    await exited;
  }
});

describe('README first steps', () => {
  it('pasted in order, end with a claim a person promoted and another agent recalled', async () => {
    const steps = readmeSteps();
    const port = await freePort();
    const home = tempHome();
    const bin = join(home, '..', 'bin');
    mkdirSync(bin);
    const opened = join(home, '..', 'opened');
    // The desktop's opener: notes the address instead of opening a browser of the host's.
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), PATH: `${bin}:${process.env['PATH']}` };
    for (const name of Object.keys(env)) if (name.startsWith('GATE_')) delete env[name];
    // As the README's alias: the built bin itself, whose first line launches node with the gate's flags.
    const alias = `gate() { '${CLI}' "$@"; }`;
    const bash = (command: string, stdin = ''): ChildProcess => {
      const child = spawn('bash', ['-c', `${alias}\n${command}`], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      // A command that reads no input may exit before its stdin is written: the pipe's EPIPE
      // says nothing about the step (what it printed and its status do), and unheard it fails the run.
      child.stdin!.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
      child.stdin!.end(stdin);
      return child;
    };
    const finished = (child: ChildProcess): Promise<Ran> =>
      new Promise((resolve) => {
        let out = '';
        let err = '';
        child.stdout!.on('data', (c) => (out += c));
        child.stderr!.on('data', (c) => (err += c));
        child.on('close', (code) => resolve({ code, out, err }));
      });

    let last: any;
    const outputs: Array<{ command: string; result: any }> = [];
    let who: string | undefined;
    for (const step of steps) {
      const command = step.replaceAll('8480', String(port));
      const exported = /^export (.+)$/.exec(command);
      if (exported) {
        for (const [, name, value] of exported[1]!.matchAll(/(\w+)=(\S+)/g)) {
          env[name!] =
            value === 'gk_...' ? last.result.key
            : value === 'key:...' ? `key:${last.result.key_id}`
            : value === 'sha256:...' ? last.result.artifact_id
            : name === 'GATE_HOME' ? home
            : value!;
        }
        continue;
      }
      if (/^gate serve\b.*&$/.test(command)) {
        serve = bash(command.replace(/\s*&$/, ''));
        let said = '';
        serve.stderr!.on('data', (c) => (said += c));
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`the gate did not say it listens: ${said}`)), 30_000);
          serve!.once('exit', () => reject(new Error(`the gate stopped: ${said}`)));
          createInterface({ input: serve!.stdout! }).on('line', (line) => {
            if (line.startsWith(`gate listening on http://127.0.0.1:${port} `)) {
              clearTimeout(timer);
              resolve();
            }
          });
        });
        continue;
      }
      let ran: Ran;
      if (command.startsWith('gate people add ')) {
        ran = await finished(bash(`${command} --password-stdin`, `${PASSWORD}\n`));
        who = /(\S+\|[0-9a-f-]{36})/.exec(ran.out)?.[1];
      } else if (command.startsWith('gate sign ')) {
        const signing = finished(bash(command, 'y\n'));
        for (const deadline = Date.now() + 20_000; !existsSync(opened); ) {
          if (Date.now() > deadline) throw new Error('gate sign opened no browser');
          await new Promise((r) => setTimeout(r, 50));
        }
        const address = readFileSync(opened, 'utf8');
        expect(address.startsWith(`http://127.0.0.1:${port}/oauth/authorize?`)).toBe(true);
        browser = await launchBrowser();
        const page = await browser.newPage();
        await page.goto(address);
        await page.fill('#email', 'alice@example.com');
        await page.fill('#password', PASSWORD);
        await page.click('button[type=submit]');
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
        expect(await page.textContent('body')).toContain('Signed in.');
        ran = await signing;
        expect(ran.out).toContain('Builds use Node 20.');
      } else {
        ran = await finished(bash(command));
      }
      expect(ran.code, `${command}\n${ran.out}\n${ran.err}`).toBe(0);
      const json = ran.out.indexOf('{');
      last = json >= 0 && !command.startsWith('gate verify') ? JSON.parse(ran.out.slice(json)) : undefined;
      outputs.push({ command, result: last });
    }

    const reviews = outputs.filter((o) => o.command === 'gate call gv.review').map((o) => o.result.result.items[0]);
    expect(reviews.length).toBe(2);
    expect(reviews[0]).toMatchObject({ artifact_id: env['CLAIM'], who_can_sign: [] });
    expect(who).toBeDefined();
    expect(reviews[1].who_can_sign).toEqual([who]);

    const signed = outputs.find((o) => o.command.startsWith('gate sign '))!.result;
    expect(signed).toMatchObject({ artifact_id: env['CLAIM'], state: 'ACTIVE', class: 'human', counts: true, promoted: true });

    const recalled = outputs.find((o) => o.command.includes('gv.recall'))!.result.result;
    expect(recalled.hits[0]).toMatchObject({ artifact_id: env['CLAIM'], held: false, weak: false, body: 'Builds use Node 20.' });
  }, 120_000);
});
