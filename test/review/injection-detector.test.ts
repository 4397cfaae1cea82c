import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { JsonEndpointServer } from '../harness/json-endpoint-server.js';
import { useGate } from '../harness/use-gate.js';
import { reviewSpaces } from '../harness/review-spaces.js';

/**
 * The model-backed injection detector (`[detector]`), through a real gate and a loopback
 * text-embeddings-inference `/predict` server this test controls: it scores a part holding
 * `[[attack]]` INJECTION 0.98, any other part SAFE. Rows of auto and model spaces wait for
 * its verdict before they leave quarantine; an attack holds the row for a person; a failing
 * endpoint holds every row (fail closed), `degraded` says why, and the rows proceed once it
 * answers, after a restart too.
 */
type Predict = { inputs: string[][]; truncate: boolean };
let mode: 'answer' | 'down' | 'unnamed' = 'answer';
const safe = [{ label: 'SAFE', score: 0.97 }, { label: 'INJECTION', score: 0.03 }];
const attack = [{ label: 'INJECTION', score: 0.98 }, { label: 'SAFE', score: 0.02 }];
const unnamed = [{ label: 'LABEL_0', score: 0.9 }, { label: 'LABEL_1', score: 0.1 }];
const server = new JsonEndpointServer<Predict>('/predict', (req) => {
  if (mode === 'down') return { status: 500, body: '{"error":"the model is not loaded"}' };
  return { status: 200, body: JSON.stringify(req.body.inputs.map(([t]) => (mode === 'unnamed' ? unnamed : t!.includes('[[attack]]') ? attack : safe))) };
});
beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  env: () => ({
    GATE_SPACES_MAIN_POLICY: 'auto',
    GATE_REVIEW_QUORUM_PROFILE: 'standard',
    GATE_DETECTOR_URL: server.origin,
    GATE_DETECTOR_MODEL: 'test/prompt-injection',
    GATE_DETECTOR_API_KEY_ENV: 'GATE_TEST_DETECTOR_KEY',
    GATE_TEST_DETECTOR_KEY: 'detector-key-123',
    GATE_DETECTOR_CHUNK_CHARS: '300',
    GATE_DETECTOR_MAX_RETRIES: '0',
    GATE_DETECTOR_CIRCUIT_FAILURES: '2',
    GATE_DETECTOR_CIRCUIT_OPEN_S: '1',
    // One row at a time, so rows are classified in the order their commits made them owed.
    GATE_DETECTOR_CONCURRENCY: '1',
  }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

beforeAll(() => reviewSpaces(gate, agent, { people: 'human', models: 'model' }));

const WITHIN = { timeout: 20_000, interval: 50 };
const ingest = (content: string, extra: Record<string, unknown> = {}) =>
  ingestId(agent, { content, workarea: 'tests/detector', source_uri: 'https://example.org/notes', ...extra });
const approval = async (id: string) => (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
const state = async (id: string) => (await approval(id)).state as string;
const waitsFor = async (id: string) => (await approval(id)).waits_for as { blocker: string; code: string; failure?: string; words: string } | null;
/** The texts the server was asked about, each part as it was sent. */
const asked = () => server.requests.flatMap((r) => r.body.inputs.map(([t]) => t!));
const askedAbout = (marker: string) => asked().some((t) => t.includes(marker));
const ping = async () => (await gate.socket('gv.ping', {})).result as { degraded: boolean; degraded_reasons: Array<{ reason: string; detail: string }> };
const notes = (n: number) => Array.from({ length: n }, (_, i) => `Build note ${i}: the cache was warmed and the unit tests passed on the first run.`).join(' ');

describe('rows of an auto space', () => {
  it('are classified before they leave quarantine: a clean row is promoted once graded and classified', async () => {
    const marker = uniqueText('clean deploy note');
    const id = await ingest(marker);
    const graded = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    expect(graded.error, JSON.stringify(graded.error)).toBeUndefined();
    await expect.poll(() => state(id), WITHIN).toBe('ACTIVE');
    const request = server.requests.find((r) => r.body.inputs.some(([t]) => t!.includes(marker)))!;
    expect(request.authorization).toBe('Bearer detector-key-123');
    expect(request.body.truncate).toBe(true);
    const stages = (await gate.rpc(reviewer.key, 'gv.queues', {})).result.stages.map((s: { stage: string }) => s.stage);
    expect(stages).toContain('detect');
  });

  it("the detector reads what a person's copy shows: a secret is masked, the rest as written", async () => {
    const marker = uniqueText('deploy key note');
    const secret = `AKIA${'Q7ZR'.repeat(4)}`;
    const id = await ingest(`${marker} The release key is ${secret} for now.`);
    // The scanner holds it for the secret; the detector still reads it, for the person who disposes of it.
    expect(await state(id)).toBe('L1B_FLAGGED');
    await expect.poll(() => askedAbout(marker), WITHIN).toBe(true);
    const sent = asked().find((t) => t.includes(marker))!;
    expect(sent).not.toContain(secret);
    expect(sent).toContain('█'.repeat(secret.length));
    expect(sent).toContain('The release key is');
  });

  it('an attack verdict holds the row in L1B_FLAGGED with a high finding over the part it scored', async () => {
    const before = `${uniqueText('build log')} ${notes(12)} `;
    const text = `${before}[[attack]] ${notes(12)}`;
    const id = await ingest(text);
    await expect.poll(() => state(id), WITHIN).toBe('L1B_FLAGGED');
    expect(await waitsFor(id)).toMatchObject({ blocker: 'hard_constraint', code: 'finding' });
    const items = (await gate.rpc(reviewer.key, 'gv.review', { cap: 500 })).result.items as Array<{ artifact_id: string; findings: Array<{ kind: string; severity: string; detail: string; start: number; end: number }> }>;
    const finding = items.find((i) => i.artifact_id === id)!.findings.find((f) => f.kind === 'injection.model_detector')!;
    expect(finding).toMatchObject({ severity: 'high' });
    expect(finding.detail).toContain('tei:test/prompt-injection');
    expect(finding.detail).toContain('INJECTION 0.980');
    // The part it scored, not the whole row: the marker is inside it, and it is at most a part long.
    expect(finding.start).toBeLessThanOrEqual(before.length);
    expect(finding.end).toBeGreaterThan(before.length);
    expect(finding.end - finding.start).toBeLessThanOrEqual(300);
    // The served scan event says the row moved, and nothing of what was found.
    const events = (await gate.rpc(reviewer.key, 'gv.why', { artifact_id: id })).result.events as Array<{ type: string; enters: string }>;
    expect(events.filter((e) => e.type === 'scan').map((e) => e.enters)).toEqual(['L1_SCANNED', 'L1B_FLAGGED']);
    // A flagged row is neither graded nor promoted.
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).error).toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });
  });
});

describe('other spaces', () => {
  it('a row of a human space is never sent; one of a model space waits for the verdict', async () => {
    const human = uniqueText('people note');
    const model = uniqueText('models note');
    const humanId = await ingest(human, { space: 'people' });
    const modelId = await ingest(model, { space: 'models' });
    await expect.poll(async () => (await waitsFor(modelId))?.code, WITHIN).toBe('not_graded');
    // One row at a time in the order they became owed: had the human row been owed, it went first.
    expect(askedAbout(model)).toBe(true);
    expect(askedAbout(human)).toBe(false);
    expect((await waitsFor(humanId))?.code).not.toBe('detecting');
  });
});

describe('a failing detector', () => {
  it('holds every row (fail closed), says why in degraded, and the rows proceed once it answers', async () => {
    mode = 'down';
    const id = await ingest(uniqueText('while the detector is down'));
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    await expect.poll(async () => (await waitsFor(id))?.code, WITHIN).toBe('detector_failed');
    expect(await waitsFor(id)).toMatchObject({ blocker: 'reviewer_unavailable', failure: 'http' });
    expect(await state(id)).toBe('L2_SCORED');
    // The models approved it, and still neither the deployment nor a reviewer key promotes it.
    expect((await gate.rpc(reviewer.key, 'gv.settle_pending', {})).result.artifact_ids).not.toContain(id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).error).toMatchObject({ code: -32010, data: { reason: 'detector' } });
    const down = await ping();
    expect(down.degraded).toBe(true);
    const reason = down.degraded_reasons.find((r) => r.reason === 'detector_unavailable')!;
    expect(reason.detail).toMatch(/^the injection detector \(tei:test\/prompt-injection\) fails since \S+: http \(HTTP 500\); \d+ rows wait for its verdict$/);

    // An answer that names none of the attack labels is a failure too, never a clean verdict.
    mode = 'unnamed';
    await expect.poll(async () => (await waitsFor(id))?.failure, WITHIN).toBe('labels');
    expect((await ping()).degraded_reasons.find((r) => r.reason === 'detector_unavailable')!.detail).toContain('LABEL_0, LABEL_1');
    expect(await state(id)).toBe('L2_SCORED');

    mode = 'answer';
    await expect.poll(() => state(id), WITHIN).toBe('ACTIVE');
    expect((await ping()).degraded_reasons.map((r) => r.reason)).not.toContain('detector_unavailable');
  });

  it('a row owed a verdict when the gate stops is classified after it starts again', async () => {
    mode = 'down';
    const id = await ingest(uniqueText('owed across a restart'));
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    await expect.poll(async () => (await waitsFor(id))?.code, WITHIN).toBe('detector_failed');
    await gate.stop();
    mode = 'answer';
    await gate.restart();
    await expect.poll(() => state(id), WITHIN).toBe('ACTIVE');
  });
});
