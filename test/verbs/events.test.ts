import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { a, b, reviewer }, ingestAnswer } = useGate({ kind: 'unit', keys: { a: 'agent', b: 'agent', reviewer: 'reviewer' } });

const make = async (key: string) => (await ingestAnswer(key, { content: uniqueText('events'), workarea: 'tests/events', source_uri: 'test://e' })).result;

async function readAll(key: string, params: Record<string, unknown> = {}) {
  const events: any[] = [];
  let since: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await gate.rpc(key, 'gv.events', { limit: 7, ...params, ...(since ? { since } : {}) });
    expect(page.error, JSON.stringify(page.error)).toBeUndefined();
    events.push(...page.result.events);
    since = page.result.next;
    if (page.result.caught_up) return events;
  }
  throw new Error('never caught up');
}

describe('gv.events', () => {
  it('pages in append order with fresh opaque cursors and a format_version', async () => {
    for (let i = 0; i < 6; i++) await make(a.key);
    const first = await gate.rpc(reviewer.key, 'gv.events', { limit: 3 });
    const same = await gate.rpc(reviewer.key, 'gv.events', { limit: 3 });
    expect(first.result.format_version).toBe(1);
    expect(first.result.events).toHaveLength(3);
    expect(first.result.next).not.toBe(same.result.next);
    expect(first.result.events).toEqual(same.result.events);
    const all = await readAll(reviewer.key);
    const ts = all.map((e) => e.event_id);
    expect(new Set(ts).size).toBe(all.length);
    for (const e of all) {
      expect(Object.keys(e)).toEqual(expect.arrayContaining(['type', 'object', 'artifact_id', 'space', 'workarea', 'leaves', 'enters', 'by', 'event_id', 'ts']));
    }
  });

  it('events carry no content, findings or reasons', async () => {
    const secret = `aws_access_key_id=AKIA${'J4QX'.repeat(4)}`;
    const row = (await gate.rpc(a.key, 'gv.ingest', { content: `${secret} ${Date.now()}`, workarea: 'tests/events', kind: 'memory', source_uri: 'test://e' })).result;
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: row.artifact_id, reason: 'words a person wrote' });
    const text = JSON.stringify(await readAll(reviewer.key));
    expect(text).not.toContain('AKIA');
    expect(text).not.toContain('words a person wrote');
    expect(text).not.toContain('"findings"');
  });

  it('below reviewer: own rows, promoted rows from promotion on, space registry events; nothing else', async () => {
    const mine = await make(b.key);
    const theirs = await make(a.key);
    const promoted = await make(a.key);
    await gate.readBody(reviewer.key, promoted.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: promoted.artifact_id });
    const seen = await readAll(b.key);
    const ids = (t: string, id: string) => seen.filter((e) => e.artifact_id === id).map((e) => e.type).join(',') === t;
    expect(ids('ingest,scan', mine.artifact_id)).toBe(true);
    expect(seen.some((e) => e.artifact_id === theirs.artifact_id)).toBe(false);
    expect(ids('promote', promoted.artifact_id)).toBe(true);
    expect(seen.some((e) => e.type === 'space-created' && e.space === 'main')).toBe(true);
    expect(seen.some((e) => ['deployment-created', 'apikey-issued'].includes(e.type))).toBe(false);
  });

  it('a cursor is unusable by another identity and a forged one is refused', async () => {
    const page = await gate.rpc(a.key, 'gv.events', { limit: 1 });
    const stolen = await gate.rpc(b.key, 'gv.events', { since: page.result.next });
    expect(stolen.error?.code).toBe(-32602);
    expect(stolen.error?.message).toContain('since');
    expect((await gate.rpc(a.key, 'gv.events', { since: 'not-a-cursor' })).error?.code).toBe(-32602);
  });

  it('backward reads newest first; tip then forward reads only what comes after', async () => {
    const back = await gate.rpc(reviewer.key, 'gv.events', { direction: 'backward', limit: 5 });
    const seqOrder = back.result.events.map((e: { ts: number }) => e.ts);
    expect([...seqOrder].sort((x: number, y: number) => y - x)).toEqual(seqOrder);
    const tip = back.result.tip;
    const row = await make(a.key);
    const after = await gate.rpc(reviewer.key, 'gv.events', { since: tip });
    expect(after.result.events.map((e: { artifact_id: string }) => e.artifact_id)).toEqual([row.artifact_id, row.artifact_id]);
    expect(after.result.caught_up).toBe(true);
  });

  it('filters by type, space and exact work area', async () => {
    const page = await gate.rpc(reviewer.key, 'gv.events', { types: ['scan'], workarea: 'tests/events', limit: 1000 });
    expect(page.result.events.length).toBeGreaterThan(0);
    for (const e of page.result.events) expect(e).toMatchObject({ type: 'scan', workarea: 'tests/events' });
  });

  const refusals: Array<[string, Record<string, unknown>]> = [
    ['limit 0', { limit: 0 }],
    ['limit 1001', { limit: 1001 }],
    ['an unserved type', { types: ['apikey-issued'] }],
    ['an unknown space', { space: 'nowhere' }],
    ['a bad area name', { workarea: 'bad//area' }],
    ['a bad direction', { direction: 'sideways' }],
  ];
  for (const [name, params] of refusals) {
    it(`refuses ${name}`, async () => {
      expect((await gate.rpc(a.key, 'gv.events', params)).error?.code).toBe(-32602);
    });
  }

  it('a key with scope events reads gv.events and gv.ping (the paused and caps parts of status), nothing else', async () => {
    const scoped = await gate.key('reviewer', { scope: 'events' });
    expect((await gate.rpc(scoped.key, 'gv.events', { limit: 1 })).result.events).toHaveLength(1);
    expect((await gate.rpc(scoped.key, 'gv.ping')).result).toMatchObject({ pong: true, degraded: expect.any(Boolean) });
    const refused = await gate.rpc(scoped.key, 'gv.describe');
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.data).toMatchObject({ scope: 'events' });
  });
});
