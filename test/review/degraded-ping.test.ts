import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { modelEnv, useModelServer } from '../harness/fake-model-server.js';
import { freePort } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * gv.ping's `degraded` says when the gate serves less than it should, and
 * `degraded_reasons` says why, for a monitor: grading unavailable (a backend's circuit open),
 * review paused (the operator away), quarantine near its cap, the embedding backend failing.
 */
const ping = async (gate: { socket: (m: string, p: unknown) => Promise<any> }) => (await gate.socket('gv.ping', {})).result;
const reasonsOf = (answer: { degraded_reasons: Array<{ reason: string }> }) => answer.degraded_reasons.map((r) => r.reason);

describe('a healthy gate, then its quarantine near the cap, then its operator away', () => {
  const { gate, keys: { agent, reader }, ingestId } = useGate({ kind: 'unit', env: { GATE_QUARANTINE_MAX_DEPTH: '10' }, keys: { agent: 'agent', reader: 'reader' } });

  it('is not degraded at first, and says so to any reader', async () => {
    expect(await ping(gate)).toMatchObject({ pong: true, degraded: false, degraded_reasons: [] });
    const asReader = await gate.rpc(reader.key, 'gv.ping', {});
    expect(asReader.result).toMatchObject({ degraded: false, degraded_reasons: [] });
  });

  it('is degraded with quarantine_near_cap at 90% of quarantine.max_depth, before ingests are refused', async () => {
    for (let i = 0; i < 8; i++) await ingestId(agent, { content: uniqueText(`held ${i}`), workarea: 'tests/degraded' });
    expect((await ping(gate)).degraded).toBe(false);
    await ingestId(agent, { content: uniqueText('the ninth'), workarea: 'tests/degraded' });
    const answer = await ping(gate);
    expect(answer.degraded).toBe(true);
    expect(answer.degraded_reasons).toEqual([{ reason: 'quarantine_near_cap', detail: '9 held rows of quarantine.max_depth 10' }]);
    // Below reviewer no count of held rows is named (docs/protocol.md#error-codes, -32006): the reason, not the numbers.
    const asReader = (await gate.rpc(reader.key, 'gv.ping', {})).result;
    expect(asReader.degraded_reasons).toEqual([{ reason: 'quarantine_near_cap', detail: 'quarantine is near its cap: ingests may soon be refused' }]);
  });

  it('names review_paused while the operator is away, and drops it when they are back', async () => {
    expect((await gate.socket('gv.away', { note: 'on leave' })).error).toBeUndefined();
    const away = await ping(gate);
    expect(reasonsOf(away)).toEqual(['review_paused', 'quarantine_near_cap']);
    expect(away.degraded_reasons[0].detail).toContain('nothing is promoted');
    expect((await gate.socket('gv.back', {})).error).toBeUndefined();
    expect(reasonsOf(await ping(gate))).toEqual(['quarantine_near_cap']);
  });
});

describe("a model backend's circuit open", () => {
  const server = useModelServer();
  const { gate, keys: { agent, reviewer }, ingestId } = useGate({
    kind: 'unit',
    env: () => modelEnv(server, { backend: { circuit_failures: 1, circuit_open_s: 3600 }, env: { GATE_SPACES_MAIN_POLICY: 'model' } }),
    keys: { agent: 'agent', reviewer: 'reviewer' },
  });

  it('is degraded with grading_unavailable, naming the backend', async () => {
    expect((await ping(gate)).degraded).toBe(false);
    const id = await ingestId(agent, { content: `${uniqueText('fails')} [[500]]`, workarea: 'tests/degraded' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    const answer = await ping(gate);
    expect(answer.degraded).toBe(true);
    expect(reasonsOf(answer)).toEqual(['grading_unavailable']);
    expect(answer.degraded_reasons[0].detail).toMatch(/^backend \S+ \(stance \w+\): the circuit is open/);
  });
});

describe("the day's grading budget spent", () => {
  const server = useModelServer();
  const { gate, keys: { agent, reviewer }, ingestId } = useGate({
    kind: 'unit',
    env: () => modelEnv(server, { env: { GATE_REVIEW_BUDGET_PER_DAY: '1', GATE_SPACES_MAIN_POLICY: 'model' } }),
    keys: { agent: 'agent', reviewer: 'reviewer' },
  });

  it('is degraded with grading_unavailable, saying the budget is spent', async () => {
    const id = await ingestId(agent, { content: uniqueText('costs tokens'), workarea: 'tests/degraded' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    const answer = await ping(gate);
    expect(reasonsOf(answer)).toEqual(['grading_unavailable']);
    expect(answer.degraded_reasons[0].detail).toContain('token budget of 1 is spent');
  });
});

describe('an embedding backend that does not answer', () => {
  let closedPort: number;
  beforeAll(async () => {
    closedPort = await freePort();
  });
  const { gate, keys: { agent }, ingestId } = useGate({
    kind: 'unit',
    env: () => ({ GATE_EMBED_BACKEND: 'openai', GATE_EMBED_URL: `http://127.0.0.1:${closedPort}/v1`, GATE_EMBED_MODEL: 'nobody-home', GATE_EMBED_TIMEOUT_MS: '500', GATE_EMBED_CONNECT_TIMEOUT_MS: '200' }),
    keys: { agent: 'agent' },
  });

  it('is degraded with embedding_failing while rows wait for their embedding', async () => {
    await ingestId(agent, { content: uniqueText('to embed'), workarea: 'tests/degraded' });
    let answer = await ping(gate);
    for (let i = 0; i < 100 && !answer.degraded; i++) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await ping(gate);
    }
    expect(reasonsOf(answer)).toEqual(['embedding_failing']);
    expect(answer.degraded_reasons[0].detail).toMatch(/^\d+ rows wait for their embedding to be retried$/);
  });
});
