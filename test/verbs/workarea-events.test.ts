import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Who = { key: string; identity: string };
const { gate, keys: { a, b, reviewer, reader } } = useGate({ kind: 'unit', keys: { a: 'agent', b: 'agent', reviewer: 'reviewer', reader: 'reader' } });

const write = async (who: Who, workarea: string, extra: Record<string, unknown> = {}) => {
  const answer = await gate.rpc(who.key, 'gv.ingest', { content: uniqueText('wa-events'), workarea, kind: 'memory', source_uri: 'test://wa-events', ...extra });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result as { artifact_id: string };
};
const call = async (who: Who, method: string, params: Record<string, unknown>) => {
  const answer = await gate.rpc(who.key, method, params);
  expect(answer.error, `${method} ${JSON.stringify(answer.error)}`).toBeUndefined();
  return answer.result;
};

async function workareaEvents(who: Who, params: Record<string, unknown> = {}) {
  const events: any[] = [];
  let since: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await call(who, 'gv.events', { types: ['workarea-completed', 'workarea-related'], limit: 1000, ...params, ...(since ? { since } : {}) });
    events.push(...page.events);
    since = page.next;
    if (page.caught_up) return events;
  }
  throw new Error('never caught up');
}
const described = (events: any[]) =>
  events.map((e) => (e.type === 'workarea-completed' ? `done ${e.workarea} ${e.identity}` : `rel ${e.workarea} ${e.kind} ${e.target} ${e.by}`)).sort();

/**
 * B writes a promoted row in open/pub and held rows only in b/private and mixed (where A
 * has a promoted row); B relates and completes in all three. A relates and completes its own.
 */
beforeAll(async () => {
  const pub = await write(b, 'open/pub');
  await gate.readBody(reviewer.key, pub.artifact_id);
  await call(reviewer, 'gv.promote', { artifact_id: pub.artifact_id });
  await write(b, 'open/pub2');
  const pub2 = await write(b, 'open/pub2');
  await gate.readBody(reviewer.key, pub2.artifact_id);
  await call(reviewer, 'gv.promote', { artifact_id: pub2.artifact_id });
  await write(b, 'b/private');
  await write(b, 'mixed');
  const aMixed = await write(a, 'mixed');
  await gate.readBody(reviewer.key, aMixed.artifact_id);
  await call(reviewer, 'gv.promote', { artifact_id: aMixed.artifact_id });
  await write(a, 'a/own');
  await call(b, 'gv.workarea_relate', { workarea: 'open/pub2', kind: 'continues', target: 'open/pub', note: 'a sentence B wrote' });
  await call(b, 'gv.workarea_relate', { workarea: 'b/private', kind: 'continues', target: 'open/pub' });
  await call(b, 'gv.workarea_relate', { workarea: 'mixed', kind: 'opened_by', target: 'open/pub' });
  await call(a, 'gv.workarea_relate', { workarea: 'a/own', kind: 'continues', target: 'open/pub' });
  await call(b, 'gv.complete', { workarea: 'open/pub', note: 'another sentence B wrote' });
  await call(b, 'gv.complete', { workarea: 'b/private' });
  await call(b, 'gv.complete', { workarea: 'mixed' });
  await call(a, 'gv.complete', { workarea: 'a/own' });
});

describe('work-area events in gv.events', () => {
  it('a reviewer reads every one, with kind, target and identity and no note', async () => {
    const events = await workareaEvents(reviewer);
    expect(described(events)).toEqual(
      [
        `rel open/pub2 continues open/pub ${b.identity}`,
        `rel b/private continues open/pub ${b.identity}`,
        `rel mixed opened_by open/pub ${b.identity}`,
        `rel a/own continues open/pub ${a.identity}`,
        `done open/pub ${b.identity}`,
        `done b/private ${b.identity}`,
        `done mixed ${b.identity}`,
        `done a/own ${a.identity}`,
      ].sort(),
    );
    for (const e of events) {
      expect(e).toMatchObject({ object: 'workarea', artifact_id: null, space: 'main', leaves: null, enters: null });
    }
    const text = JSON.stringify(events);
    expect(text).not.toContain('sentence B wrote');
    expect(text).not.toContain('"note"');
  });

  it('below reviewer, served where the lineage shows the part or the edge; never a held-only writer', async () => {
    expect(described(await workareaEvents(a))).toEqual(
      [
        `rel open/pub2 continues open/pub ${b.identity}`,
        `rel a/own continues open/pub ${a.identity}`,
        `done open/pub ${b.identity}`,
        `done a/own ${a.identity}`,
      ].sort(),
    );
    expect(described(await workareaEvents(reader))).toEqual(
      [`rel open/pub2 continues open/pub ${b.identity}`, `done open/pub ${b.identity}`].sort(),
    );
    // What the lineage shows the same callers, for comparison.
    const lineage = await call(a, 'gv.lineage', {});
    expect(lineage.nodes.find((n: any) => n.name === 'mixed').states).toEqual({ [a.identity]: 'open' });
    expect(lineage.nodes.some((n: any) => n.name.startsWith('b/'))).toBe(false);
  });

  it('a workarea filter narrows to the area; events of an area the caller cannot see are not served at all', async () => {
    expect(described(await workareaEvents(a, { workarea: 'open/pub' }))).toEqual([`done open/pub ${b.identity}`]);
    expect(await workareaEvents(a, { workarea: 'b/private' })).toEqual([]);
    expect(await workareaEvents(b, { workarea: 'b/private' })).toHaveLength(2);
  });

  it('an area in a space the caller may not read shows only its own part', async () => {
    await gate.socket('gv.space_create', { name: 'vault', policy: 'auto' });
    await gate.socket('gv.grant', {
      action: 'issue',
      grants: [
        { principal: a.identity, space: 'vault', capabilities: ['contribute'] },
        { principal: b.identity, space: 'vault', capabilities: ['read', 'contribute'] },
      ],
    });
    const theirs = await write(b, 'locked', { space: 'vault' });
    await gate.readBody(reviewer.key, theirs.artifact_id);
    await call(reviewer, 'gv.promote', { artifact_id: theirs.artifact_id });
    await write(a, 'locked', { space: 'vault' });
    await call(b, 'gv.complete', { workarea: 'locked', space: 'vault' });
    await call(a, 'gv.complete', { workarea: 'locked', space: 'vault' });
    expect(described(await workareaEvents(a, { space: 'vault' }))).toEqual([`done locked ${a.identity}`]);
    expect(await workareaEvents(reader, { space: 'vault' })).toEqual([]);
  });
});
