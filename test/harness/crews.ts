import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { InProcessServer } from './in-process-server.js';
import type { RpcAnswer } from './gate-process.js';

/** Either kind of test gate: both answer the socket (as admin) and /rpc with a key. */
export interface TestGate {
  socket(method: string, params?: unknown): Promise<RpcAnswer>;
  rpc(key: string, method: string, params?: unknown): Promise<RpcAnswer>;
}

/**
 * A crew test's gate settings: promotions by a reviewer key in auto spaces under the
 * solo-reviewer profile, and a hello allowed every second (the clock is the test's);
 * `settings` over them. For an in-process gate: `useGate({ kind: 'in-process', settings: crewSettings() })`.
 */
export function crewSettings(settings: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'spaces.main_policy': 'auto',
    'review.quorum_profile': 'solo-reviewer',
    'runners.hello_interval_seconds': 1,
    ...settings,
  };
}

/** An in-process gate with crewSettings, for a test that starts a second gate of its own. */
export function startCrewGate(settings: Record<string, unknown> = {}): Promise<InProcessServer> {
  return InProcessServer.start(crewSettings(settings));
}

let spaces = 0;
export const freshSpace = (label = 'crew') => `${label}-${process.pid}-${++spaces}`;

export const SHEET = {
  format: 'crew_sheet/1',
  brief: 'Answers questions about how the build is configured.',
  roles: [
    { role: 'lead', type: 'reasoning', members: 1 },
    { role: 'scout', type: 'research', members: 2 },
  ],
};

export const sheetText = (extra: Record<string, unknown> = {}) => JSON.stringify({ ...SHEET, ...extra, brief: `${SHEET.brief} ${randomBytes(4).toString('hex')}` });

/** What a reviewer does before signing: read the whole body, so its approval counts. */
export async function readWhole(g: TestGate, key: string, id: string): Promise<void> {
  let offset: number | null = 0;
  while (offset !== null) {
    const page: RpcAnswer = await g.rpc(key, 'gv.node', { artifact_id: id, body: true, ...(offset === 0 ? {} : { offset }) });
    if (page.error) return;
    offset = page.result.masked_next_offset ?? null;
  }
}

/** A question asked by `askerKey` in `space` and promoted by `reviewerKey`, as a person would; its artifact id. */
export async function askPromoted(g: TestGate, askerKey: string, reviewerKey: string, space: string, words: string, workarea: string): Promise<string> {
  const q = await g.rpc(askerKey, 'gv.ingest', {
    space,
    workarea,
    kind: 'question',
    source_uri: `test://${workarea}`,
    addressed_to: { kinds: ['person'] },
    content: JSON.stringify({ format: 'question/1', question: words }),
  });
  expect(q.error, JSON.stringify(q.error)).toBeUndefined();
  await readWhole(g, reviewerKey, q.result.artifact_id);
  expect((await g.rpc(reviewerKey, 'gv.promote', { artifact_id: q.result.artifact_id })).result?.state).toBe('ACTIVE');
  return q.result.artifact_id as string;
}

export async function issueKey(g: TestGate, role: string, extra: Record<string, unknown> = {}) {
  const answer = await g.socket('gv.keys', { action: 'issue', role, ...extra });
  if (answer.error) throw new Error(`key issue failed: ${answer.error.message}`);
  return { key: answer.result.key as string, keyId: answer.result.key_id as string, identity: `key:${answer.result.key_id}` };
}

export interface Crew {
  space: string;
  sheetId: string;
  agent: { key: string; identity: string };
  reviewer: { key: string; identity: string };
}

/** An auto space, an agent that may write there, and a crew sheet it wrote, ingested but not promoted. */
export async function proposeSheet(g: TestGate, sheet: Record<string, unknown> = {}, space = freshSpace()) {
  if (!(await g.socket('gv.spaces')).result.spaces.some((s: { name: string }) => s.name === space)) {
    const created = await g.socket('gv.space_create', { name: space, policy: 'auto' });
    if (created.error) throw new Error(created.error.message);
  }
  const agent = await issueKey(g, 'agent');
  const reviewer = await issueKey(g, 'reviewer');
  await g.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space, capabilities: ['read', 'contribute'] }] });
  const ingest = await g.rpc(agent.key, 'gv.ingest', {
    space,
    workarea: 'crew/sheet',
    kind: 'prompt_template',
    source_uri: 'test://crew-sheet',
    content: sheetText(sheet),
  });
  if (ingest.error) throw new Error(`sheet ingest failed: ${JSON.stringify(ingest.error)}`);
  await readWhole(g, reviewer.key, ingest.result.artifact_id);
  return { space, sheetId: ingest.result.artifact_id as string, agent, reviewer };
}

/** A crew: a space whose sheet a reviewer promoted. */
export async function makeCrew(g: TestGate, sheet: Record<string, unknown> = {}, space?: string): Promise<Crew> {
  const crew = await proposeSheet(g, sheet, space);
  const promoted = await g.rpc(crew.reviewer.key, 'gv.promote', { artifact_id: crew.sheetId });
  if (promoted.error) throw new Error(`sheet promote failed: ${JSON.stringify(promoted.error)}`);
  return crew;
}

export const MODELS = { reasoning: { model: 'model-large', effort: 'high' }, research: { model: 'model-small' } };

/** A runner key configured with a command and models (and the default provider as its endpoint). */
export async function makeRunner(g: TestGate, settings: Record<string, unknown> = {}) {
  const runner = await issueKey(g, 'runner', { label: 'test runner' });
  const set = await g.socket('gv.runner_set', { runner: runner.keyId, command: 'true', models: MODELS, base_url: null, ...settings });
  if (set.error) throw new Error(`runner_set failed: ${JSON.stringify(set.error)}`);
  return runner;
}

export const newInstance = () => randomBytes(16).toString('hex');

/** A valid gate.runner-hello/1 body; fields given replace the defaults. */
export function hello(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'gate.runner-hello/1',
    instance: 'a'.repeat(32),
    runner: '1.0.0',
    harness: '2.1.3',
    host: 'build-host',
    backend: 'anthropic',
    models: MODELS,
    models_floor: false,
    capacity: { crews: 4, members: 16 },
    recorded: { version: 0, ok: true },
    budget: { day: '2026-11-24', spent: 0, of: 50000 },
    serving: [],
    facts: {
      node: '20.20.2',
      claude: { path: '/usr/local/bin/claude', found: true },
      plugin: { path: '', mcp: false },
      workdir: { path: '/tmp/runner-work', writable: true },
      git: '2.43.0',
      home: '/root',
    },
    settings_version: 0,
    refused: [],
    token: { version: 0, held: false },
    ...fields,
  };
}
