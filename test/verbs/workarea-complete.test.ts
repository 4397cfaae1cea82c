import { describe, expect, it, vi } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const write = (key: string, workarea: string, extra: Record<string, unknown> = {}) =>
  gate.rpc(key, 'gv.ingest', { content: uniqueText('complete'), workarea, kind: 'memory', source_uri: 'test://complete', ...extra });

async function completions(workarea: string) {
  const page = await gate.rpc(reviewer.key, 'gv.events', { types: ['workarea-completed'], workarea, limit: 1000 });
  expect(page.error, JSON.stringify(page.error)).toBeUndefined();
  return page.result.events as any[];
}

describe('gv.complete', () => {
  it("completes the caller's part once: a second call answers changed false and journals nothing", async () => {
    const first = (await write(agent.key, 'done/once')).result;
    const done = await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/once', note: 'words the agent wrote' });
    expect(done.result).toEqual({
      space: 'main',
      name: 'done/once',
      identity: agent.identity,
      state: 'complete',
      changed: true,
      event_id: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const again = await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/once' });
    expect(again.result).toEqual({ space: 'main', name: 'done/once', identity: agent.identity, state: 'complete', changed: false });
    const events = await completions('done/once');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'workarea', space: 'main', workarea: 'done/once', identity: agent.identity, by: agent.identity, event_id: done.result.event_id });
    expect(JSON.stringify(events)).not.toContain('words the agent wrote');
    expect((await gate.rpc(agent.key, 'gv.workarea', { workarea: 'done/once' })).result.own.map((r: any) => r.artifact_id)).toEqual([first.artifact_id]);
  });

  it('refuses later writes by that identity there with -32010 work_complete and writes nothing; others and other places are open', async () => {
    const first = (await write(agent.key, 'done/closed')).result;
    await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/closed' });
    const before = (await gate.rpc(reviewer.key, 'gv.inventory', { limit: 200 })).result.total;
    const refused = await write(agent.key, 'done/closed');
    expect(refused.error?.code).toBe(-32010);
    expect(refused.error?.data).toEqual({ reason: 'work_complete' });
    // The same bytes again would be a duplicate answer elsewhere; here the part is closed first.
    const repeat = await gate.rpc(agent.key, 'gv.ingest', { content: 'repeat after completion', workarea: 'done/closed', kind: 'memory', source_uri: 's' });
    expect(repeat.error?.data).toEqual({ reason: 'work_complete' });
    expect((await gate.rpc(reviewer.key, 'gv.inventory', { limit: 200 })).result.total).toBe(before);
    const own = (await gate.rpc(agent.key, 'gv.workarea', { workarea: 'done/closed' })).result;
    expect(own.own.map((r: any) => r.artifact_id)).toEqual([first.artifact_id]);
    expect(own.state).toBe('complete');

    expect((await write(other.key, 'done/closed')).result.state).toBe('L1_SCANNED');
    expect((await write(agent.key, 'done/closed/child')).result.state).toBe('L1_SCANNED');
    expect((await write(agent.key, 'done')).result.state).toBe('L1_SCANNED');
  });

  it('an ingest scanned while the completion lands is refused inside the write: no row of that part follows the completion', async () => {
    await write(agent.key, 'done/race');
    // A large body keeps the scan busy a while; the completion commits meanwhile, once the scan has begun.
    const slow = write(agent.key, 'done/race', { content: `${uniqueText('slow')} ${'the build uses node twenty. '.repeat(100_000)}` });
    await vi.waitFor(
      async () => {
        const scan = (await gate.rpc(reviewer.key, 'gv.queues')).result.stages.find((s: { stage: string }) => s.stage === 'scan');
        expect(scan.running).toBe(1);
      },
      { timeout: 30_000, interval: 5 },
    );
    expect((await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/race' })).result.changed).toBe(true);
    expect((await slow).error?.data).toEqual({ reason: 'work_complete' });
    const page = await gate.rpc(reviewer.key, 'gv.events', { types: ['ingest', 'workarea-completed'], workarea: 'done/race', limit: 1000 });
    expect(page.result.events.map((e: any) => e.type)).toEqual(['ingest', 'workarea-completed']);
  });

  it('a reviewer completes another identity part; its writes there are then refused', async () => {
    await write(other.key, 'done/by-reviewer');
    const done = await gate.rpc(reviewer.key, 'gv.complete', { workarea: 'done/by-reviewer', identity: other.identity });
    expect(done.result).toMatchObject({ identity: other.identity, changed: true });
    const [event] = await completions('done/by-reviewer');
    expect(event).toMatchObject({ identity: other.identity, by: reviewer.identity });
    expect((await write(other.key, 'done/by-reviewer')).error?.data).toEqual({ reason: 'work_complete' });
  });

  it('one space part does not close the same area name in another space', async () => {
    await gate.socket('gv.space_create', { name: 'elsewhere', policy: 'human' });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space: 'elsewhere', capabilities: ['read', 'contribute'] }] });
    await write(agent.key, 'done/spaces');
    await write(agent.key, 'done/spaces', { space: 'elsewhere' });
    expect((await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/spaces', space: 'elsewhere' })).result.space).toBe('elsewhere');
    expect((await write(agent.key, 'done/spaces', { space: 'elsewhere' })).error?.data).toEqual({ reason: 'work_complete' });
    expect((await write(agent.key, 'done/spaces')).result.state).toBe('L1_SCANNED');
  });
});

describe('gv.complete refusals', () => {
  it('an agent naming another identity is refused naming both roles; naming itself is fine', async () => {
    await write(other.key, 'done/not-yours');
    const refused = await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/not-yours', identity: other.identity });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toContain('reviewer');
    expect(refused.error?.message).toContain('agent');
    expect((await completions('done/not-yours'))).toHaveLength(0);
    await write(agent.key, 'done/self-named');
    expect((await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/self-named', identity: agent.identity })).result.changed).toBe(true);
  });

  it('a reader is refused naming both roles', async () => {
    const reader = await gate.key('reader');
    const refused = await gate.rpc(reader.key, 'gv.complete', { workarea: 'done/once' });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.data).toEqual({ required: 'agent', role: 'reader' });
  });

  it('a part never written into is refused, for the caller and for a named identity', async () => {
    await write(other.key, 'done/only-other');
    const own = await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/only-other' });
    expect(own.error?.code).toBe(-32602);
    expect(own.error?.message).toContain('never wrote');
    const named = await gate.rpc(reviewer.key, 'gv.complete', { workarea: 'done/only-other', identity: agent.identity });
    expect(named.error?.message).toContain('never wrote');
    expect((await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/nobody' })).error?.code).toBe(-32602);
    expect(await completions('done/only-other')).toHaveLength(0);
  });

  it('an unknown space is refused naming the spaces; a bad area name and a missing one are refused', async () => {
    const space = await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/once', space: 'nowhere' });
    expect(space.error?.code).toBe(-32602);
    expect(space.error?.data.spaces).toContain('main');
    for (const workarea of ['a//b', '/lead', 'x/'.repeat(8) + 'x', 'white space']) {
      const bad = await gate.rpc(agent.key, 'gv.complete', { workarea });
      expect(bad.error?.code, workarea).toBe(-32602);
      expect(bad.error?.data?.field, workarea).toBe('workarea');
    }
    expect((await gate.rpc(agent.key, 'gv.complete', {})).error?.message).toContain('workarea');
  });

  it('a caller without contribute on the space is refused not_granted', async () => {
    await gate.socket('gv.space_create', { name: 'closed', policy: 'human' });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space: 'closed', capabilities: ['read', 'contribute'] }] });
    await write(agent.key, 'done/revoked', { space: 'closed' });
    await gate.socket('gv.grant', { action: 'revoke', grants: [{ principal: agent.identity, space: 'closed', capabilities: ['contribute'] }] });
    const refused = await gate.rpc(agent.key, 'gv.complete', { workarea: 'done/revoked', space: 'closed' });
    expect(refused.error?.data).toEqual({ reason: 'not_granted', space: 'closed', capability: 'contribute' });
  });

  it('the journal replays to the same work-area view', async () => {
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.result.tables.workarea_parts.equal).toBe(true);
    expect(rebuilt.result.equal).toBe(true);
  });
});
