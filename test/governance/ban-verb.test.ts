import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const { gate: server, ingestAnswer } = useGate({ kind: 'in-process', settings: { 'spaces.main_policy': 'auto', 'review.quorum_profile': 'solo-reviewer' } });

let admin: string;
let reviewer: string;

type Key = { key: string; identity: string };
const key = async (role: string): Promise<Key> => {
  const r = await server.socket('gv.keys', { action: 'issue', role });
  return { key: r.result.key, identity: `key:${r.result.key_id}` };
};

beforeAll(async () => {
  admin = (await key('admin')).key;
  reviewer = (await key('reviewer')).key;
});

const ingest = (who: Key) => ingestAnswer(who, { content: uniqueText('ban verb'), workarea: 'tests/ban-verb', source_uri: 'test://ban-verb' });
const ban = (params: Record<string, unknown>) => server.rpc(admin, 'gv.ban', params);
const banEvents = () => server.journal('ban').length;

describe('gv.ban', () => {
  it('is for admins; reason is required unless lift; until lies ahead and goes with a ban; a writer subject is an identity', async () => {
    const agent = await key('agent');
    expect((await server.rpc(reviewer, 'gv.ban', { kind: 'writer', subject: agent.identity, reason: 'x' })).error).toMatchObject({
      code: -32602,
      data: { required: 'admin', role: 'reviewer' },
    });
    expect((await ban({ kind: 'writer', subject: agent.identity })).error).toMatchObject({ code: -32602, data: { field: 'reason' } });
    expect((await ban({ kind: 'writer', subject: agent.identity, reason: 'x', until: server.clock.now() - 1 })).error).toMatchObject({ data: { field: 'until' } });
    expect((await ban({ kind: 'writer', subject: agent.identity, lift: true, until: server.clock.now() + MINUTE })).error).toMatchObject({ data: { field: 'until' } });
    expect((await ban({ kind: 'writer', subject: 'nobody in particular', reason: 'x' })).error).toMatchObject({ data: { field: 'subject' } });
    expect((await ban({ kind: 'group', subject: agent.identity, reason: 'x' })).error?.code).toBe(-32602);
    expect((await ban({ kind: 'writer', subject: agent.identity, reason: 'x', extra: 1 })).error?.code).toBe(-32602);
  });

  it('a repeat and a lift of nothing journal nothing and say so', async () => {
    const agent = await key('agent');
    const before = banEvents();
    const lifted = await ban({ kind: 'writer', subject: agent.identity, lift: true });
    expect(lifted.result).toEqual({ kind: 'writer', subject: agent.identity, active: false, event_id: null, changed: false });
    const first = await ban({ kind: 'writer', subject: agent.identity, reason: 'first' });
    expect(first.result).toEqual({ kind: 'writer', subject: agent.identity, active: true, event_id: expect.stringMatching(/^[0-9a-f]{64}$/), changed: true });
    const again = await ban({ kind: 'writer', subject: agent.identity, reason: 'the same ban again' });
    expect(again.result).toEqual({ ...first.result, changed: false });
    expect(banEvents()).toBe(before + 1);
    // Another until is another ban: it replaces the standing one.
    const until = server.clock.now() + 30 * MINUTE;
    const timed = await ban({ kind: 'writer', subject: agent.identity, reason: 'now timed', until });
    expect(timed.result).toMatchObject({ active: true, until, changed: true });
    expect(banEvents()).toBe(before + 2);
    const lift = await ban({ kind: 'writer', subject: agent.identity, lift: true });
    expect(lift.result).toMatchObject({ active: false, changed: true });
    expect((await ban({ kind: 'writer', subject: agent.identity, lift: true })).result.changed).toBe(false);
    expect(banEvents()).toBe(before + 3);
  });

  it('a ban with until ends by itself at that time on the injected clock, with no event', async () => {
    const agent = await key('agent');
    const until = server.clock.now() + 10 * MINUTE;
    expect((await ban({ kind: 'writer', subject: agent.identity, reason: 'cool off', until })).result).toMatchObject({ active: true, until });
    const events = server.journal('ban').length;
    expect((await ingest(agent)).error).toMatchObject({ code: -32009, data: { kind: 'writer', until } });
    server.clock.advance(9 * MINUTE);
    expect((await ingest(agent)).error?.code).toBe(-32009);
    expect((await server.rpc(agent.key, 'gv.bans', {})).result.bans).toHaveLength(1);
    server.clock.advance(2 * MINUTE);
    expect((await ingest(agent)).result.state).toBe('L1_SCANNED');
    expect(server.journal('ban').length).toBe(events);
    expect((await server.rpc(agent.key, 'gv.bans', {})).result.bans).toEqual([]);
    // Run out, it is no standing ban: a lift lifts nothing.
    expect((await ban({ kind: 'writer', subject: agent.identity, lift: true })).result.changed).toBe(false);
  });

  it("a writer dry run counts that writer's promoted and held rows, its last write and refusals in the last 7 days", async () => {
    const agent = await key('agent');
    const none = await ban({ kind: 'writer', subject: agent.identity, dry_run: true });
    expect(none.result).toEqual({ kind: 'writer', subject: agent.identity, dry_run: true, promoted: 0, held: 0, last_write_ts: null, refused_last_7_days: 0 });
    const ids = [(await ingest(agent)).result.artifact_id, (await ingest(agent)).result.artifact_id, (await ingest(agent)).result.artifact_id];
    await server.rpc(reviewer, 'gv.node', { artifact_id: ids[0], body: true });
    expect((await server.rpc(reviewer, 'gv.promote', { artifact_id: ids[0] })).result.state).toBe('ACTIVE');
    const lastTs = server.clock.now();
    await ban({ kind: 'writer', subject: agent.identity, reason: 'counting refusals' });
    expect((await ingest(agent)).error?.code).toBe(-32009);
    expect((await ingest(agent)).error?.code).toBe(-32009);
    const events = banEvents();
    const dry = await ban({ kind: 'writer', subject: agent.identity, dry_run: true });
    expect(dry.result).toEqual({ kind: 'writer', subject: agent.identity, dry_run: true, promoted: 1, held: 2, last_write_ts: expect.any(Number), refused_last_7_days: 2 });
    expect(dry.result.last_write_ts).toBeLessThanOrEqual(lastTs);
    expect(banEvents()).toBe(events);
    // Refusals older than the current UTC day and the six before it leave the window, not the total.
    server.clock.advance(8 * DAY);
    expect((await ban({ kind: 'writer', subject: agent.identity, dry_run: true })).result.refused_last_7_days).toBe(0);
    const listed = await server.rpc(reviewer, 'gv.bans', {});
    expect(listed.result.refused.find((r: any) => r.writer_identity === agent.identity)).toMatchObject({ refused: 2, refused_last_7_days: 0 });
    await ban({ kind: 'writer', subject: agent.identity, lift: true });
  });
});

describe('gv.bans and gv.graph bans[]', () => {
  it('below reviewer a caller sees only a ban on its own identity and its own refused writes; reviewers see all', async () => {
    const a = await key('agent');
    const b = await key('agent');
    const reader = await key('reader');
    await ban({ kind: 'writer', subject: a.identity, reason: 'a is noisy' });
    await ban({ kind: 'source', subject: 'https://visibility.example/', reason: 'a source' });
    expect((await ingest(a)).error?.code).toBe(-32009);

    const ownView = await server.rpc(a.key, 'gv.bans', {});
    expect(ownView.result).toEqual({
      bans: [{ kind: 'writer', subject: a.identity, reason: 'a is noisy', until: null, by: expect.any(String), ts: expect.any(Number), event_id: expect.any(String) }],
      refused: [{ writer_identity: a.identity, refused: 1, refused_last_7_days: 1, last_ts: expect.any(Number) }],
      truncated: false,
    });
    for (const other of [b, reader]) {
      expect((await server.rpc(other.key, 'gv.bans', {})).result).toEqual({ bans: [], refused: [], truncated: false });
      expect((await server.rpc(other.key, 'gv.graph', {})).result.bans).toEqual([]);
    }
    expect((await server.rpc(a.key, 'gv.graph', {})).result.bans.map((x: any) => x.subject)).toEqual([a.identity]);

    const all = await server.rpc(reviewer, 'gv.bans', {});
    expect(all.result.bans.map((x: any) => x.subject)).toEqual(expect.arrayContaining([a.identity, 'https://visibility.example']));
    expect(all.result.refused.map((r: any) => r.writer_identity)).toContain(a.identity);
    const graph = await server.rpc(reviewer, 'gv.graph', {});
    expect(graph.result.bans).toEqual(all.result.bans);
    // limit cuts the lists and says so.
    const cut = await server.rpc(reviewer, 'gv.bans', { limit: 1 });
    expect(cut.result.bans).toHaveLength(1);
    expect(cut.result.truncated).toBe(true);
    expect((await server.rpc(reviewer, 'gv.bans', { limit: 0 })).error?.code).toBe(-32602);
    await ban({ kind: 'writer', subject: a.identity, lift: true });
    await ban({ kind: 'source', subject: 'https://visibility.example/', lift: true });
  });

  it('ban events are internal: never served by gv.events, and a refusal event carries no content', async () => {
    const a = await key('agent');
    await ban({ kind: 'writer', subject: a.identity, reason: 'internal events' });
    const words = `refusedwords${Date.now().toString(36)}`;
    expect((await server.rpc(a.key, 'gv.ingest', { content: words, workarea: 'tests/ban-verb', kind: 'memory', source_uri: 'test://x' })).error?.code).toBe(-32009);
    const served = await server.rpc(reviewer, 'gv.events', { limit: 1000, direction: 'backward' });
    expect(served.result.events.map((e: any) => e.type)).not.toContain('ban');
    expect(served.result.events.map((e: any) => e.type)).not.toContain('ban-refused');
    expect((await server.rpc(reviewer, 'gv.events', { types: ['ban'] })).error?.code).toBe(-32602);
    const refusal = server.journal('ban-refused').at(-1)!;
    expect(refusal).toMatchObject({ by: a.identity, data: { door: 'gv.ingest', ban_kind: 'writer' } });
    expect(JSON.stringify(refusal)).not.toContain(words);
    // The log says who banned whom once the ban is committed.
    const logged = (line: string) => server.log.filter((l) => l === line).length;
    const lifts = logged('info ban lifted');
    expect(logged('info banned')).toBeGreaterThan(0);
    await ban({ kind: 'writer', subject: a.identity, lift: true });
    expect(logged('info ban lifted')).toBe(lifts + 1);
  });

  it('gv.rebuild reproduces bans, lifts, expiries and refusal counts exactly', async () => {
    const a = await key('agent');
    await ban({ kind: 'writer', subject: a.identity, reason: 'rebuild', until: server.clock.now() + MINUTE });
    expect((await ingest(a)).error?.code).toBe(-32009);
    await ban({ kind: 'source', subject: 'https://rebuild.example/a', reason: 'rebuild' });
    await ban({ kind: 'source', subject: 'https://rebuild.example/a', lift: true });
    await ban({ kind: 'source', subject: 'https://rebuild.example/b', reason: 'rebuild' });
    server.clock.advance(2 * MINUTE);
    const rebuilt = await server.socket('gv.rebuild', {});
    expect(rebuilt.result.equal).toBe(true);
    for (const table of ['bans', 'ban_acts', 'ban_refusals', 'ban_refusal_days']) expect(rebuilt.result.tables[table]?.equal, table).toBe(true);
  });
});
