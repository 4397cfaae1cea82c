import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const base = () => ({ content: uniqueText(), workarea: 'tests/ingest', source_uri: 'test://ingest' });
const ingest = (params: Record<string, unknown>, key = agent.key) => gate.rpc(key, 'gv.ingest', params);

describe('gv.ingest: trust classes are derived, never supplied', () => {
  const expected: Record<string, string> = {
    memory: 'T-1', derived_fact: 'T-1', summary: 'T-1', steering: 'T-1',
    skill: 'T-2', prompt_template: 'T-2', imported_document: 'T-4',
  };
  for (const [kind, cls] of Object.entries(expected)) {
    it(`${kind} enters L1_SCANNED at ${cls}`, async () => {
      const a = await ingest({ ...base(), kind });
      expect(a.result).toMatchObject({ state: 'L1_SCANNED', trust_class: cls, kind, space: 'main', workarea: 'tests/ingest', findings_count: 0 });
      expect(a.result.scan_event).toMatch(/^[0-9a-f]{64}$/);
      expect(a.result).not.toHaveProperty('content_type');
    });
  }

  for (const cls of ['trace', 'tool_call', 'session', 'usage_record', 'verdict']) {
    it(`recorded class ${cls} enters RECORDED at T-1 and is never held`, async () => {
      const a = await ingest({ ...base(), content_type: cls });
      expect(a.result).toMatchObject({ state: 'RECORDED', trust_class: 'T-1', content_type: cls });
      const pending = await gate.rpc(agent.key, 'gv.pending', {});
      expect(pending.result.pending.map((p: { artifact_id: string }) => p.artifact_id)).not.toContain(a.result.artifact_id);
    });
  }
});

describe('gv.ingest refusals', () => {
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['no workarea, whatever else is sent', { content: 'x', source_uri: 's', kind: 'memory' }, 'workarea'],
    ['a bad work area name', { workarea: '../etc', content: 'x', source_uri: 's', kind: 'memory' }, 'workarea'],
    ['nine segments', { workarea: 'a/b/c/d/e/f/g/h/i', content: 'x', source_uri: 's', kind: 'memory' }, 'workarea'],
    ['both kind and content_type', { ...{ workarea: 'w', content: 'x', source_uri: 's' }, kind: 'memory', content_type: 'trace' }, 'exactly one'],
    ['neither kind nor content_type', { workarea: 'w', content: 'x', source_uri: 's' }, 'exactly one'],
    ['an unknown kind', { workarea: 'w', content: 'x', source_uri: 's', kind: 'poem' }, 'kind'],
    ['a gated class as content_type', { workarea: 'w', content: 'x', source_uri: 's', content_type: 'memory' }, 'as kind'],
    ['an unregistered content_type', { workarea: 'w', content: 'x', source_uri: 's', content_type: 'blob' }, 'content_type'],
    ['no source_uri', { workarea: 'w', content: 'x', kind: 'memory' }, 'source_uri'],
    ['a bad producer kind', { workarea: 'w', content: 'x', source_uri: 's', kind: 'memory', producer: { name: 'p', kind: 'robot' } }, 'producer'],
    ['addressed_to on a memory', { workarea: 'w', content: 'x', source_uri: 's', kind: 'memory', addressed_to: { kinds: ['agent'] } }, 'addressed_to'],
    ['addressed_to with both lists empty', { workarea: 'w', content: 'x', source_uri: 's', kind: 'steering', addressed_to: { names: [], kinds: [] } }, 'addressed_to'],
    ['a question addressed to agents', { workarea: 'w', content: '{"format":"question/1","question":"why?"}', source_uri: 's', kind: 'question', addressed_to: { kinds: ['agent'] } }, 'person'],
    ['a question body that is not question/1', { workarea: 'w', content: 'why?', source_uri: 's', kind: 'question', addressed_to: { kinds: ['person'] } }, 'question/1'],
    ['base64 that is not strict', { workarea: 'w', content: 'aGVsbG8', encoding: 'base64', source_uri: 's', kind: 'memory' }, 'base64'],
    ['base64 of bytes that are not UTF-8', { workarea: 'w', content: Buffer.from([0xff, 0xfe, 0x00]).toString('base64'), encoding: 'base64', source_uri: 's', kind: 'memory' }, 'UTF-8'],
    ['text with NUL', { workarea: 'w', content: 'a\u0000b', source_uri: 's', kind: 'memory' }, 'NUL'],
    ['empty content', { workarea: 'w', content: '', source_uri: 's', kind: 'memory' }, 'empty'],
  ];
  for (const [name, params, words] of refusals) {
    it(name, async () => {
      const a = await ingest(params);
      expect(a.error?.code, JSON.stringify(a)).toBe(-32602);
      expect(a.error?.message).toContain(words);
    });
  }
});

describe('gv.ingest content forms', () => {
  it('base64 UTF-8 text is accepted and stored as the decoded bytes', async () => {
    const text = `base64 body ${uniqueText()}`;
    const a = await ingest({ ...base(), content: Buffer.from(text).toString('base64'), encoding: 'base64', kind: 'memory' });
    expect(a.result.state).toBe('L1_SCANNED');
    const node = await gate.rpc(agent.key, 'gv.node', { artifact_id: a.result.artifact_id, body: true });
    expect(node.result.body).toBe(text);
    expect(node.result.size_bytes).toBe(Buffer.byteLength(text));
  });

  it('a scanner finding of medium or above holds the row in L1B_FLAGGED and no finding text leaves the gate', async () => {
    const secret = 'ghp_' + 'Zq8'.repeat(12);
    const a = await ingest({ ...base(), kind: 'memory', content: `deploy token: ${secret}` });
    expect(a.result.state).toBe('L1B_FLAGGED');
    expect(a.result.findings_count).toBeGreaterThan(0);
    const answers = [
      a,
      await gate.rpc(agent.key, 'gv.status', { artifact_id: a.result.artifact_id }),
      await gate.rpc(agent.key, 'gv.why', { artifact_id: a.result.artifact_id }),
      await gate.rpc(agent.key, 'gv.audit', { artifact_id: a.result.artifact_id }),
      await gate.rpc(reviewer.key, 'gv.node', { artifact_id: a.result.artifact_id }),
      await gate.rpc(reviewer.key, 'gv.events', { limit: 1000 }),
      await gate.rpc(reviewer.key, 'gv.pending', {}),
    ];
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(secret.slice(4, 20));
    const recall = await gate.rpc(agent.key, 'gv.recall', { query: 'deploy token' });
    expect(recall.result.hits.map((h: { artifact_id: string }) => h.artifact_id)).not.toContain(a.result.artifact_id);
  });
});

describe('the duplicate rule', () => {
  it('the same bytes by the same identity in the same space answer the first row, with the first producer', async () => {
    const p = { ...base(), kind: 'memory', producer: { name: 'first', kind: 'agent' } };
    const first = await ingest(p);
    const again = await ingest({ ...p, producer: { name: 'second', kind: 'tool' }, workarea: 'tests/elsewhere' });
    expect(again.result).toEqual({
      artifact_id: first.result.artifact_id,
      state: 'L1_SCANNED',
      space: 'main',
      workarea: 'tests/ingest',
      producer: { name: 'first', kind: 'agent' },
      duplicate: true,
    });
  });

  it('bytes another identity holds unpromoted become a new row for the caller', async () => {
    const p = { ...base(), kind: 'memory' };
    const mine = await ingest(p);
    const theirs = await ingest(p, other.key);
    expect(theirs.result.duplicate).toBeUndefined();
    expect(theirs.result.artifact_id).not.toBe(mine.result.artifact_id);
  });

  it('bytes already promoted in the space answer the promoted row to anyone', async () => {
    const p = { ...base(), kind: 'memory' };
    const mine = await ingest(p);
    await gate.readBody(reviewer.key, mine.result.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: mine.result.artifact_id });
    const theirs = await ingest(p, other.key);
    expect(theirs.result).toMatchObject({ artifact_id: mine.result.artifact_id, state: 'ACTIVE', duplicate: true });
  });

  it('concurrent repeats of the same bytes make exactly one row', async () => {
    const p = { ...base(), kind: 'memory' };
    const answers = await Promise.all(Array.from({ length: 12 }, () => ingest(p)));
    const ids = new Set(answers.map((a) => a.result.artifact_id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.result.duplicate !== true)).toHaveLength(1);
  });
});

describe('questions and answers', () => {
  const question = (n: number) => ({
    workarea: 'tests/questions',
    source_uri: 'test://q',
    kind: 'question',
    content: JSON.stringify({ format: 'question/1', question: `Which Node version? (${n} ${Date.now()})` }),
    addressed_to: { kinds: ['person'] },
  });

  it('at most 8 questions per writer per work area; the ninth is refused with reason question_limit', async () => {
    const q = await gate.key('agent');
    for (let n = 0; n < 8; n++) expect((await ingest(question(n), q.key)).result.state).toBe('L1_SCANNED');
    const ninth = await ingest(question(9), q.key);
    expect(ninth.error).toMatchObject({ code: -32602, data: { reason: 'question_limit' } });
  });

  it('an answer names a promoted question first in derives_from; replaces must be in derives_from', async () => {
    const asked = await ingest(question(100));
    const answer = (derives: string[], extra: Record<string, unknown> = {}) =>
      ingest({
        workarea: 'tests/questions',
        source_uri: 'test://a',
        kind: 'answer',
        content: JSON.stringify({ format: 'answer/1', answer: `Node 20 ${Math.random()}`, ...extra }),
        derives_from: derives,
      });
    const early = await answer([asked.result.artifact_id]);
    expect(early.error?.message).toContain('held');
    await gate.readBody(reviewer.key, asked.result.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: asked.result.artifact_id });
    const ok = await answer([asked.result.artifact_id]);
    expect(ok.result.state).toBe('L1_SCANNED');
    const stray = await answer([asked.result.artifact_id], { replaces: 'b'.repeat(64) });
    expect(stray.error?.message).toContain('replaces');
    const memory = await ingest({ ...base(), kind: 'memory' });
    const notFirst = await answer([memory.result.artifact_id, asked.result.artifact_id]);
    expect(notFirst.error?.message).toContain('question first');
  });
});

describe('quarantine back-pressure', () => {
  it('a full scan queue refuses -32006 with retry_after_ms instead of buffering; the rest are answered', async () => {
    const tight = await UnitGate.open({ env: { GATE_QUARANTINE_SCAN_QUEUE: '1', GATE_SCAN_BATCH_MAX: '1' } });
    try {
      const a = await tight.key('agent');
      const answers = await Promise.all(
        Array.from({ length: 64 }, (_, i) => tight.rpc(a.key, 'gv.ingest', { ...base(), content: `${uniqueText()} #${i}`, kind: 'memory' })),
      );
      const refused = answers.filter((x) => x.error);
      const accepted = answers.filter((x) => x.result);
      expect(refused.length).toBeGreaterThan(0);
      expect(accepted.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.error?.code).toBe(-32006);
        expect(r.error?.data?.retry_after_ms).toBeGreaterThan(0);
      }
      const inventory = await tight.socket('gv.inventory', { states: ['L1_SCANNED'], limit: 200 });
      expect(inventory.result.total).toBe(accepted.length);
    } finally {
      await tight.stop();
    }
  });

  it('past max_depth an ingest is refused -32006 with retry_after_ms, naming no count of held rows', async () => {
    const small = await UnitGate.open({ env: { GATE_QUARANTINE_MAX_DEPTH: '3' } });
    try {
      const a = await small.key('agent');
      for (let i = 0; i < 3; i++) {
        expect((await small.rpc(a.key, 'gv.ingest', { ...base(), kind: 'memory' })).result.state).toBe('L1_SCANNED');
      }
      const full = await small.rpc(a.key, 'gv.ingest', { ...base(), kind: 'memory' });
      expect(full.error?.code).toBe(-32006);
      expect(full.error?.data?.retry_after_ms).toBeGreaterThan(0);
      expect(full.error?.message).not.toMatch(/\d/);
      expect(Object.keys(full.error?.data ?? {})).toEqual(['retry_after_ms']);
      const reviewerKey = await small.key('reviewer');
      const held = await small.rpc(reviewerKey.key, 'gv.pending', {});
      await small.rpc(reviewerKey.key, 'gv.reject', { artifact_id: held.result.pending[0].artifact_id });
      expect((await small.rpc(a.key, 'gv.ingest', { ...base(), kind: 'memory' })).result.state).toBe('L1_SCANNED');
    } finally {
      await small.stop();
    }
  });
});
