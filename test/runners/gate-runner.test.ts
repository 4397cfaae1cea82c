import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { runCli, startGateRunner } from '../harness/gate-runner-process.js';
import { askPromoted, issueKey, makeCrew, MODELS, readWhole, type Crew } from '../harness/crews.js';
import { signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const ANSWERING_SCRIPT = join(ROOT, 'test', 'runners', 'fixtures', 'crew-answer.mjs');

const { gate, keys: { reviewer, asker, runner } } = useGate({
  kind: 'in-process',
  env: { GATE_RUNNERS_HELLO_INTERVAL_SECONDS: '1', GATE_RUNNERS_GONE_SECONDS: '4' },
  keys: { reviewer: 'reviewer', asker: 'agent', runner: { role: 'runner', label: 'e2e host' } },
});
let crew: Crew;
const others: Array<{ keyId: string }> = [];
let workRoot: string;
let stateDir: string;
let hosted: ChildProcess | undefined;
const runnerLog: string[] = [];

/** Polls `probe` until it answers something other than undefined (45 s at most: the machine is shared). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) {
      const views = await Promise.all([runner, ...others].map((r) => runnerView(r.keyId)));
      throw new Error(`gave up waiting for ${what}; runners: ${JSON.stringify(views)}\nrunner log:\n${runnerLog.slice(-30).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function startRunner(key: string): ChildProcess {
  return startGateRunner({ url: gate.url, key, stateDir, log: runnerLog });
}

const runnerView = async (keyId: string) => (await gate.rpc(reviewer.key, 'gv.runners', { runner: keyId })).result.runners[0];

const ask = (words: string) => askPromoted(gate, asker.key, reviewer.key, crew.space, words, 'asks/e2e');

const questionOf = async (q: string) => (await gate.rpc(asker.key, 'gv.question', { question: q })).result;

/** The crew's answer row to `q`, once a member key wrote one (a reviewer sees held rows). */
async function crewAnswerTo(q: string): Promise<{ artifact_id: string; body: string }> {
  return waitFor(`the crew's answer to ${q.slice(0, 16)}`, async () => {
    const held = (await gate.rpc(reviewer.key, 'gv.inventory', { spaces: [crew.space], states: ['L1_SCANNED', 'L1B_FLAGGED'], limit: 200 })).result.artifacts;
    for (const row of held as Array<{ artifact_id: string; content_type: string }>) {
      if (row.content_type !== 'answer') continue;
      const node = (await gate.rpc(reviewer.key, 'gv.node', { artifact_id: row.artifact_id, body: true })).result;
      const audit = (await gate.rpc(reviewer.key, 'gv.audit', { artifact_id: row.artifact_id })).result;
      if (JSON.stringify(audit).includes(q)) return { artifact_id: row.artifact_id, body: node.masked_body ?? node.body };
    }
    return undefined;
  });
}

beforeAll(async () => {
  crew = await makeCrew(gate, { instructions: 'Answer from what the build says.' });
  await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: asker.identity, space: crew.space, capabilities: ['read', 'contribute'] }] });
  workRoot = mkdtempSync(join(tmpdir(), 'gate-runner-work-'));
  stateDir = mkdtempSync(join(tmpdir(), 'gate-runner-state-'));
  const set = await gate.socket('gv.runner_set', {
    runner: runner.keyId,
    command: `node ${ANSWERING_SCRIPT}`,
    workdir_root: workRoot,
    models: MODELS,
    base_url: null,
    max_running: 2,
    poll_seconds: 0.2,
    idle_poll_seconds: 0.5,
    key_seconds: 1,
    grace_seconds: 1,
    progress_seconds: 30,
  });
  expect(set.error).toBeUndefined();
  await gate.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-e2e-provider-token' });
  expect((await gate.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId })).error).toBeUndefined();
});

afterAll(async () => {
  hosted?.kill('SIGKILL');
});

describe('gate runner', () => {
  it('has --help naming its options', async () => {
    const help = await runCli(['runner', '--help']);
    expect(help.code).toBe(0);
    for (const option of ['--url', '--key-env', '--crews', '--members', '--harness', '--state-dir']) expect(help.stdout).toContain(option);
    const keyless = await runCli(['runner', '--url', 'http://127.0.0.1:9', '--key-env', 'NO_SUCH_VARIABLE']);
    expect(keyless.code).toBe(3);
    expect(keyless.stderr).toContain('NO_SUCH_VARIABLE');
  });

  it('says hello with honest facts, takes its crew’s keys and its token, and holds them', async () => {
    hosted = startRunner(runner.key);
    const view = await waitFor('keys and token held', async () => {
      const v = await runnerView(runner.keyId);
      return v.heard && v.token === 'held' && v.assignments[0]?.keys === 'held' ? v : undefined;
    });
    const claude = (await new Promise<string>((resolve) => {
      const which = spawn('sh', ['-c', 'command -v claude || true'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      which.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      which.once('close', () => resolve(out.trim()));
    }));
    expect(view.last_hello).toMatchObject({
      runner_version: '1.0.0',
      backend: 'default',
      capacity: { crews: 2, members: 8 },
      settings_version: 1,
      refused: [],
      harness_found: claude !== '',
      workdir_writable: true,
      serving: [{ space: crew.space, running: 0, holds: 3 }],
    });
    expect(view.last_hello.budget).toMatchObject({ spent: 0, of: 50000 });
    // Keys and token never reach its log.
    expect(runnerLog.join('\n')).not.toContain('sk-e2e-provider-token');
    expect(runnerLog.join('\n')).not.toContain(runner.key);
  });

  it('runs the crew’s command for a routed question: it answers through the client library; promoted, the asker reads it', async () => {
    const q = await ask(uniqueText('Which Node does the build use?'));
    const given = await crewAnswerTo(q);
    expect(given.body).toContain('answered by');
    expect(given.body).toContain('runner key seen: false');
    expect(given.body).toMatch(/(reasoning, model-large|research, model-small)/);
    await readWhole(gate, reviewer.key, given.artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: given.artifact_id })).result?.state).toBe('ACTIVE');
    const read = await questionOf(q);
    expect(read.state).toBe('answered');
    expect(read.answers[0].body).toContain('The build uses Node 20');
  });

  it('forwards what the command prints as an answer/1 row, from a fresh work directory it removes after', async () => {
    const q = await ask(uniqueText('[print] Where does the build run?'));
    const given = await crewAnswerTo(q);
    expect(given.body).toContain('Printed answer from');
    expect(given.body).toContain(`work dir ${workRoot}/q-`);
    await waitFor('the work directory removed', async () => (readdirSync(workRoot).length === 0 ? true : undefined));
  });

  it('refers the question when the command says so, or fails: it goes to people, reason referred', async () => {
    const referred = await ask(uniqueText('[refer] Who approved the last release?'));
    await waitFor('the referral', async () => ((await questionOf(referred)).reason === 'referred' ? true : undefined));
    expect(await questionOf(referred)).toMatchObject({ state: 'with_people', reason: 'referred' });
    const failed = await ask(uniqueText('[fail] What breaks the nightly job?'));
    await waitFor('the failure referred', async () => ((await questionOf(failed)).reason === 'referred' ? true : undefined));
    const budget = (await runnerView(runner.keyId)).last_hello.budget;
    expect(budget.of).toBe(50000);
  });

  it('runs at most max_running commands; one silent past progress_seconds is stopped (SIGKILL after grace_seconds) and referred', async () => {
    expect((await gate.socket('gv.runner_set', { runner: runner.keyId, max_running: 1, progress_seconds: 2, grace_seconds: 0.5 })).error).toBeUndefined();
    await waitFor('settings version 2 applied', async () => ((await runnerView(runner.keyId)).last_hello.settings_version === 2 ? true : undefined));
    const first = await ask(uniqueText('[stubborn] What does the nightly job wait for?'));
    const second = await ask(uniqueText('[stubborn] And the weekly one?'));
    let most = 0;
    await waitFor('both referred', async () => {
      const running = (await runnerView(runner.keyId)).last_hello.serving[0]?.running ?? 0;
      most = Math.max(most, running);
      const states = await Promise.all([first, second].map(questionOf));
      return states.every((s) => s.reason === 'referred') ? true : undefined;
    });
    expect(most).toBe(1);
    const person = await signIn(gate, { role: 'reviewer' });
    const referral = (await gate.rpc(person.accessToken, 'gv.question', { question: first })).result.referral;
    expect(referral).toMatchObject({ crew: crew.space, words: 'The crew’s command made no progress and was stopped.' });
    await gate.socket('gv.runner_set', { runner: runner.keyId, max_running: 2, progress_seconds: 30, grace_seconds: 1 });
  });

  it('stopped, the runner ends; its crew is gone and the next question goes to people (crew_gone)', async () => {
    hosted!.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => hosted!.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    await waitFor('the crew gone', async () => ((await runnerView(runner.keyId)).heard ? undefined : true));
    const q = await ask(uniqueText('Is anyone there?'));
    expect(await questionOf(q)).toMatchObject({ state: 'with_people', reason: 'crew_gone' });
  });

  it('refuses a work root inside its home (inside_home) and says so in its hello', async () => {
    const other = await issueKey(gate, 'runner');
    others.push(other);
    await gate.socket('gv.runner_set', { runner: other.keyId, command: `node ${ANSWERING_SCRIPT}`, workdir_root: join(homedir(), 'gate-crews'), models: MODELS, idle_poll_seconds: 0.5, poll_seconds: 0.2 });
    hosted = startRunner(other.key);
    const hello = await waitFor('the refusal reported', async () => {
      const v = await runnerView(other.keyId);
      return v.last_hello?.settings_version === 1 ? v.last_hello : undefined;
    });
    expect(hello.refused).toEqual([{ field: 'workdir_root', code: 'inside_home' }]);
    expect(hello.workdir_writable).toBe(false);
    hosted.kill('SIGTERM');
    await new Promise((resolve) => hosted!.once('exit', resolve));
  });
});
