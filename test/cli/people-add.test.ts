import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI } from '../harness/gate-process.js';
import { authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { gateCommand } from '../harness/gate-command.js';

const { gate } = useGate({ kind: 'in-process' });

const run = gateCommand;

/** Signs in through the provider's form: 303 when email and password are right. */
async function signInStatus(email: string, password: string): Promise<number> {
  const fields = authorizeFields(gate, pkcePair().challenge);
  return (await gate.http('POST', '/oauth/authorize', form({ ...fields, email, password }))).status;
}

describe('gate people add', () => {
  it('--password-stdin adds a person who can then sign in with that password', async () => {
    const added = await run(['people', 'add', 'grace@example.test', '--role', 'reviewer', '--demo', '--password-stdin', '--home', gate.home], 'correct horse battery\n');
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/^added grace@example\.test as reviewer \(demo\): http:\/\/127\.0\.0\.1:\d+\|[0-9a-f-]{36}; event [0-9a-f]{64}\n$/);
    expect(await signInStatus('grace@example.test', 'correct horse battery')).toBe(303);
    expect(await signInStatus('grace@example.test', 'correct horse battery\n')).toBe(200);
    const listed = await run(['people', 'list', '--home', gate.home]);
    expect(listed.out).toMatch(/reviewer\tgrace@example\.test\t.*\(demo, signs in here\)/);
  });

  it('asks for the password on a terminal without echoing it, twice', async () => {
    const password = 'never-shown-on-screen-42';
    const command = `${process.execPath} ${CLI} people add henry@example.test --home ${gate.home}`;
    // script(1) gives the command a terminal; what the terminal would show comes back on its stdout.
    const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => (screen.includes(text) ? resolve() : setTimeout(check, 20));
        check();
      });
    child.stdout.on('data', (c) => (screen += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await seen('Password for henry@example.test: ');
    child.stdin.write(`${password}\r`);
    await seen('The same password again: ');
    child.stdin.write(`${password}\r`);
    expect(await exited).toBe(0);
    expect(screen).toMatch(/added henry@example\.test as reader/);
    expect(screen).not.toContain(password);
    expect(screen).not.toContain('never-shown');
    expect(await signInStatus('henry@example.test', password)).toBe(303);
  });

  it('refuses a duplicate email (exit 1) and says when no gate answers (exit 2)', async () => {
    const dup = await run(['people', 'add', 'grace@example.test', '--password-stdin', '--home', gate.home], 'whatever password\n');
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/already signs in here/);
    const none = await run(['people', 'add', 'x@example.test', '--password-stdin', '--home', '/nonexistent-home'], 'whatever password\n');
    expect(none.code).toBe(2);
  });

  it('without a terminal and without --password-stdin it says how to give the password', async () => {
    const refused = await run(['people', 'add', 'ivy@example.test', '--home', gate.home]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/--password-stdin/);
  });

  it('has --help', async () => {
    const help = await run(['people', 'add', '--help']);
    expect(help.out).toMatch(/--password-stdin/);
    expect(help.out).toMatch(/without echo/);
  });
});
