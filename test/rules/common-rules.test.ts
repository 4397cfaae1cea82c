import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { reader, agent, reviewer }, ingestAnswer } = useGate({ kind: 'unit', keys: { reader: 'reader', agent: 'agent', reviewer: 'reviewer' } });

const ingest = (key: string, extra: Record<string, unknown> = {}) => ingestAnswer(key, { content: uniqueText(), workarea: 'tests/rules', source_uri: 'test://rules', ...extra });

describe('C1: a call above the caller role is refused -32602 naming both roles', () => {
  const cases: Array<[string, 'reader' | 'agent' | 'reviewer', string, Record<string, unknown>]> = [
    ['gv.ingest', 'reader', 'agent', { content: 'x', workarea: 'a', kind: 'memory', source_uri: 's' }],
    ['gv.promote', 'agent', 'reviewer', { artifact_id: 'a'.repeat(64) }],
    ['gv.reject', 'agent', 'reviewer', { artifact_id: 'a'.repeat(64) }],
    ['gv.demote', 'reader', 'reviewer', { artifact_id: 'a'.repeat(64) }],
    ['gv.keys', 'agent', 'reviewer', {}],
    ['gv.grant', 'reviewer', 'admin', { action: 'issue', grants: [] }],
    ['gv.grants', 'reviewer', 'admin', {}],
    ['gv.rebuild', 'reviewer', 'admin', {}],
  ];
  for (const [method, role, required, params] of cases) {
    it(`${method} as ${role}`, async () => {
      const key = { reader, agent, reviewer }[role].key;
      const answer = await gate.rpc(key, method, params);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain(required);
      expect(answer.error?.message).toContain(role);
      expect(answer.error?.data).toEqual({ required, role });
    });
  }
});

describe('C3 and the invariants: unlisted fields, null values and identity fields are refused by name', () => {
  it('an unlisted field is refused naming it', async () => {
    const answer = await gate.rpc(reader.key, 'gv.status', { artifact_id: 'a'.repeat(64), colour: 'blue' });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('colour');
    expect(answer.error?.data).toMatchObject({ field: 'colour' });
  });

  it('an unlisted nested field is refused naming its path', async () => {
    const answer = await ingest(agent.key, { producer: { name: 'main', kind: 'agent', mood: 'calm' } });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('producer.mood');
  });

  it('null is refused by name, even for an optional field', async () => {
    const answer = await ingest(agent.key, { space: null });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('space');
    expect(answer.error?.message).toContain('null');
  });

  it('a nested null is refused by its path', async () => {
    const answer = await ingest(agent.key, { derives_from: [null] });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.data).toMatchObject({ field: 'derives_from.0' });
  });

  for (const field of ['writer_identity', 'deployment_id']) {
    it(`${field} is refused on any verb, on HTTP and on the socket`, async () => {
      for (const answer of [
        await ingest(agent.key, { [field]: 'someone-else' }),
        await gate.rpc(reader.key, 'gv.ping', { [field]: 'x' }),
        await gate.socket('gv.ping', { [field]: 'x' }),
      ]) {
        expect(answer.error?.code).toBe(-32602);
        expect(answer.error?.message).toContain(field);
      }
    });
  }

  it('trust_class on ingest is refused by name', async () => {
    const answer = await ingest(agent.key, { trust_class: 'T-1' });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('trust_class');
  });

  it('an unknown method is -32601', async () => {
    const answer = await gate.rpc(reader.key, 'gv.nothing_here');
    expect(answer.error?.code).toBe(-32601);
  });
});

describe('C4: artifact operands with or without sha256:, anything else refused before dispatch', () => {
  it('accepts both forms for the same row', async () => {
    const made = await ingest(agent.key);
    const id: string = made.result.artifact_id;
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    const withPrefix = await gate.rpc(agent.key, 'gv.status', { artifact_id: id });
    const bare = await gate.rpc(agent.key, 'gv.status', { artifact_id: id.slice(7) });
    expect(withPrefix.result).toEqual(bare.result);
    expect(bare.result.artifact_id).toBe(id);
  });

  for (const bad of ['sha256:XYZ', 'sha1:' + 'a'.repeat(40), 'A'.repeat(64), 'a'.repeat(63), 'sha256:' + 'a'.repeat(65)]) {
    it(`refuses ${bad.slice(0, 20)}`, async () => {
      const answer = await gate.rpc(reviewer.key, 'gv.status', { artifact_id: bad });
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain('artifact_id');
      expect(answer.error?.message).not.toContain('unknown artifact');
    });
  }
});

describe('C5: a write into a space without contribute', () => {
  it('is refused with data {reason: not_granted, space, capability}, and a grant lets it through', async () => {
    const created = await gate.socket('gv.space_create', { name: 'closed-c5', policy: 'human' });
    expect(created.result.space).toBe('closed-c5');
    const refused = await ingest(agent.key, { space: 'closed-c5' });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.data).toEqual({ reason: 'not_granted', space: 'closed-c5', capability: 'contribute' });
    const granted = await gate.socket('gv.grant', {
      action: 'issue',
      grants: [{ principal: agent.identity, space: 'closed-c5', capabilities: ['contribute'] }],
    });
    expect(granted.result.grants[0].changed).toBe(true);
    const accepted = await ingest(agent.key, { space: 'closed-c5' });
    expect(accepted.result.state).toBe('L1_SCANNED');
    expect(accepted.result.space).toBe('closed-c5');
  });
});

describe('C7: an unknown space is refused naming the spaces that exist', () => {
  it('on ingest and on recall', async () => {
    for (const answer of [
      await ingest(agent.key, { space: 'nowhere' }),
      await gate.rpc(reader.key, 'gv.recall', { query: 'anything', space: 'nowhere' }),
    ]) {
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain('nowhere');
      expect(answer.error?.message).toContain('main');
      expect(answer.error?.data?.spaces).toContain('main');
    }
  });
});

describe('C8: derives_from ids must each be readable by the caller', () => {
  it("another agent's held row is refused as an unknown artifact; a promoted one is accepted", async () => {
    const other = await gate.key('agent');
    const parent = await ingest(other.key);
    const id: string = parent.result.artifact_id;
    const refused = await ingest(agent.key, { derives_from: [id] });
    expect(refused.error).toEqual({ code: -32602, message: `unknown artifact: ${id.slice(0, 16)}` });
    await gate.readBody(reviewer.key, id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
    const accepted = await ingest(agent.key, { derives_from: [id] });
    expect(accepted.result.state).toBe('L1_SCANNED');
  });
});

describe('C6: below reviewer, counts and totals cover promoted rows and the caller own', () => {
  it('inventory totals of one agent exclude another agent held rows; a reviewer sees them', async () => {
    const a = await gate.key('agent');
    const b = await gate.key('agent');
    await ingest(a.key);
    await ingest(a.key);
    const own = await gate.rpc(a.key, 'gv.inventory', { states: ['L1_SCANNED'] });
    const others = await gate.rpc(b.key, 'gv.inventory', { states: ['L1_SCANNED'] });
    const all = await gate.rpc(reviewer.key, 'gv.inventory', { states: ['L1_SCANNED'] });
    expect(own.result.total).toBe(2);
    expect(others.result.total).toBe(0);
    expect(all.result.total).toBeGreaterThanOrEqual(2);
    expect(others.result.artifacts).toEqual([]);
  });
});
