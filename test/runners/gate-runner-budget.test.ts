import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { askPromoted, issueKey, makeCrew, MODELS, type Crew } from '../harness/crews.js';
import { signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { runCli, startGateRunner, stopGateRunner } from '../harness/gate-runner-process.js';

const ANSWERING_SCRIPT = join(ROOT, 'test', 'runners', 'fixtures', 'crew-answer.mjs');
const BUDGET = 2880;
const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const { gate, keys: { reviewer, asker } } = useGate({
  kind: 'in-process',
  env: { GATE_RUNNERS_HELLO_INTERVAL_SECONDS: '1', GATE_RUNNERS_GONE_SECONDS: '10' },
  keys: { reviewer: 'reviewer', asker: 'agent' },
});
let markers: string;
const hosted: ChildProcess[] = [];
const runnerLog: string[] = [];

interface HostedCrew {
  crew: Crew;
  runner: { key: string; keyId: string };
  workRoot: string;
  stateDir: string;
  stateFile: string;
}

/** Polls `probe` until it answers something other than undefined (45 s at most: the machine is shared). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}\nrunner log:\n${runnerLog.slice(-30).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * These tests write a state file for "today": one started in the last minutes of a UTC day
 * would see the runner roll over to the next mid-test, so it starts once the day has turned.
 */
async function clearOfMidnight(): Promise<void> {
  const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
  if (untilMidnight < MIDNIGHT_MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, untilMidnight + 1000));
}
const MIDNIGHT_MARGIN_MS = 120_000;
/** A test's own time (60 s on this shared machine) plus the wait for the day to turn. */
const MIDNIGHT_ROOM_MS = 60_000 + MIDNIGHT_MARGIN_MS;

/** A crew in its own space hosted by its own runner key, whose command leaves a marker file named for the question when it starts. */
async function hostedCrew(): Promise<HostedCrew> {
  const crew = await makeCrew(gate, { instructions: 'Answer from what the build says.' });
  await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: asker.identity, space: crew.space, capabilities: ['read', 'contribute'] }] });
  const runner = await issueKey(gate, 'runner', { label: 'budget host' });
  const workRoot = mkdtempSync(join(tmpdir(), 'gate-runner-work-'));
  const set = await gate.socket('gv.runner_set', {
    runner: runner.keyId,
    command: `touch ${markers}/ran-"$GATE_QUESTION" && sleep 1.5 && node ${ANSWERING_SCRIPT}`,
    workdir_root: workRoot,
    models: MODELS,
    base_url: null,
    budget_per_day: BUDGET,
    poll_seconds: 0.2,
    idle_poll_seconds: 0.5,
    key_seconds: 1,
    grace_seconds: 1,
  });
  expect(set.error, JSON.stringify(set.error)).toBeUndefined();
  expect((await gate.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId })).error).toBeUndefined();
  const stateDir = mkdtempSync(join(tmpdir(), 'gate-runner-state-'));
  return { crew, runner, workRoot, stateDir, stateFile: join(stateDir, `budget-${runner.keyId}.json`) };
}

const writeState = (h: HostedCrew, day: string, spentMs: number) =>
  writeFileSync(h.stateFile, JSON.stringify({ format: 'gate-runner-budget/1', day, spent_ms: spentMs }), { mode: 0o600 });

function start(h: HostedCrew): ChildProcess {
  const child = startGateRunner({ url: gate.url, key: h.runner.key, stateDir: h.stateDir, log: runnerLog });
  hosted.push(child);
  return child;
}

const runnerView = async (keyId: string) => (await gate.rpc(reviewer.key, 'gv.runners', { runner: keyId })).result.runners[0];

/** The runner's newest hello once it holds its crew's keys. */
const heldHello = (h: HostedCrew) =>
  waitFor('keys held', async () => {
    const v = await runnerView(h.runner.keyId);
    return v.heard && v.assignments[0]?.keys === 'held' && v.last_hello.serving[0]?.holds === 3 ? v.last_hello : undefined;
  });

const ask = (space: string, words: string) => askPromoted(gate, asker.key, reviewer.key, space, words, 'asks/budget');

const questionOf = async (q: string) => (await gate.rpc(asker.key, 'gv.question', { question: q })).result;

beforeAll(async () => {
  markers = mkdtempSync(join(tmpdir(), 'gate-runner-markers-'));
});

afterAll(async () => {
  for (const child of hosted) child.kill('SIGKILL');
});

describe("gate runner and the day's budget", () => {
  it('refuses to start on a corrupt state file, naming the file and how to fix it', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'gate-runner-state-'));
    const key = `gk_${'b'.repeat(43)}`;
    const path = join(stateDir, `budget-${createHash('sha256').update(key).digest('hex').slice(0, 12)}.json`);
    writeFileSync(path, '{"format":"gate-runner-budget/1","day":"2026-11-');
    const refused = await runCli(['runner', '--url', 'http://127.0.0.1:9', '--key-env', 'K', '--state-dir', stateDir], { ...process.env, K: key });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`the runner state file ${path} is not JSON`);
    expect(refused.stderr).toContain('remove it');
    expect(refused.stderr).not.toContain(key);
    expect(readFileSync(path, 'utf8')).toBe('{"format":"gate-runner-budget/1","day":"2026-11-');
  });

  it('a day already spent: no command starts, the hello says so, and the question goes to people at once, the referral saying why', async () => {
    await clearOfMidnight();
    const h = await hostedCrew();
    const today = utcDay(Date.now());
    writeState(h, today, BUDGET * 1000);
    start(h);
    expect((await heldHello(h)).budget).toEqual({ day: today, spent: BUDGET, of: BUDGET });
    const q = await ask(h.crew.space, uniqueText('What does the nightly job wait for?'));
    await waitFor('the referral', async () => ((await questionOf(q)).reason === 'referred' ? true : undefined));
    expect(await questionOf(q)).toMatchObject({ state: 'with_people', reason: 'referred' });
    const person = await signIn(gate, { role: 'reviewer' });
    const referral = (await gate.rpc(person.accessToken, 'gv.question', { question: q })).result.referral;
    expect(referral).toMatchObject({ crew: h.crew.space, words: `The crew's day budget is spent (${BUDGET} of ${BUDGET} seconds of command time on ${today}, UTC); no command was started. It starts again at 00:00 UTC.` });
    expect(existsSync(join(markers, `ran-${q}`))).toBe(false);
    expect(readdirSync(h.workRoot)).toEqual([]);
    // The file is as it was: nothing ran, nothing was added.
    expect(JSON.parse(readFileSync(h.stateFile, 'utf8'))).toEqual({ format: 'gate-runner-budget/1', day: today, spent_ms: BUDGET * 1000 });
  }, MIDNIGHT_ROOM_MS);

  it("yesterday's spending does not count: the command runs; its time is kept for today and a restarted runner starts from it", async () => {
    await clearOfMidnight();
    const h = await hostedCrew();
    const today = utcDay(Date.now());
    writeState(h, utcDay(Date.now() - DAY_MS), BUDGET * 1000);
    const first = start(h);
    expect((await heldHello(h)).budget).toEqual({ day: today, spent: 0, of: BUDGET });
    const q = await ask(h.crew.space, uniqueText('Which Node does the build use?'));
    await waitFor('the command run and ended', async () => (existsSync(join(markers, `ran-${q}`)) && readdirSync(h.workRoot).length === 0 ? true : undefined));
    const kept = await waitFor('the spending kept', async () => {
      const state = JSON.parse(readFileSync(h.stateFile, 'utf8')) as { day: string; spent_ms: number };
      return state.day === today ? state : undefined;
    });
    // The command sleeps 1.5 s before it answers.
    expect(kept.spent_ms).toBeGreaterThanOrEqual(1500);
    expect(kept.spent_ms).toBeLessThan(BUDGET * 1000);
    expect(await stopGateRunner(first)).toBe(0);
    const before = (await runnerView(h.runner.keyId)).last_hello.instance;
    start(h);
    // Its first hello comes before the settings do: the one after has them applied.
    const restarted = await waitFor('a hello from the new instance with its settings', async () => {
      const hello = (await runnerView(h.runner.keyId)).last_hello;
      return hello.instance !== before && hello.settings_version > 0 ? hello : undefined;
    });
    expect(restarted.budget).toEqual({ day: today, spent: Math.floor(kept.spent_ms / 1000), of: BUDGET });
    // Its keys went with the first instance: the gate serves them once; the log says what to do.
    await waitFor('the reissue advice', async () => (runnerLog.some((line) => line.includes('ask the admin to reissue') && line.includes(h.crew.space)) ? true : undefined));
  }, MIDNIGHT_ROOM_MS);
});
