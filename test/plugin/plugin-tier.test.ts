import { afterEach, describe, expect, it } from 'vitest';
import { tempHome, uniqueText } from '../harness/gate-process.js';
import { InProcessServer } from '../harness/in-process-server.js';
import { PluginProcess } from '../harness/plugin-process.js';

const running: Array<{ stop(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});
async function plugin(options: Parameters<typeof PluginProcess.start>[0]) {
  const p = await PluginProcess.start(options);
  running.push(p);
  return p;
}
async function gateAt(home: string) {
  const g = await InProcessServer.start({}, home);
  running.push(g);
  return g;
}

const note = (text: string, extra: Record<string, unknown> = {}) => ({ content: text, content_type: 'memory', source_uri: 'test://plugin', ...extra });

describe('gate plugin with no gate running', () => {
  it('lists the plugin-tier catalog', async () => {
    const p = await plugin({ home: tempHome() });
    const { tools } = await p.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'gate.remember', 'gate.recall', 'gate.status', 'gate.pending', 'gate.workarea', 'gate.complete', 'gate.workarea_relate', 'gate.lineage',
    ]);
  });

  it('remembers and recalls from its own store, with local: handles in the session area', async () => {
    const p = await plugin({ home: tempHome() });
    const text = uniqueText('offline zanzibar');
    const r = await p.tool('remember', note(text));
    expect(r.artifact_id).toMatch(/^local:[0-9a-f]{32}$/);
    expect(r).toMatchObject({ state: 'LOCAL', workarea: `plugin/${p.session}` });
    const hits = await p.tool('recall', { query: 'zanzibar' });
    expect(hits.results.map((h: any) => h.artifact_id)).toEqual([r.artifact_id]);
    expect(hits.results[0]).toMatchObject({ held: true, body: text, provenance: { local: true, ratified: false } });
    expect((await p.tool('status', { artifact_id: r.artifact_id })).state).toBe('LOCAL');
    expect((await p.tool('pending', {})).pending.map((x: any) => x.artifact_id)).toEqual([r.artifact_id]);
    expect((await p.tool('workarea', { workarea: `plugin/${p.session}` })).own.map((x: any) => x.artifact_id)).toEqual([r.artifact_id]);
  });

  it('a subagent writes into plugin/<session>/<name>, related opened_by the session area', async () => {
    const p = await plugin({ home: tempHome() });
    await p.tool('remember', note(uniqueText('main')));
    const sub = await p.tool('remember', note(uniqueText('sub'), { producer: { name: 'helper', kind: 'agent' } }));
    expect(sub.workarea).toBe(`plugin/${p.session}/helper`);
    const lineage = await p.tool('lineage', {});
    expect(lineage.edges).toContainEqual({ source: `plugin/${p.session}/helper`, target: `plugin/${p.session}`, provenance: 'declared', kind: 'opened_by' });
  });

  it('a completed area refuses later writes work_complete, and the input rules hold', async () => {
    const p = await plugin({ home: tempHome() });
    await p.tool('remember', note(uniqueText('done'), { workarea: 'notes/x' }));
    expect((await p.tool('complete', { workarea: 'notes/x' })).changed).toBe(true);
    expect(await p.refusal('remember', note(uniqueText(), { workarea: 'notes/x' }))).toMatchObject({ code: -32010, data: { reason: 'work_complete' } });
    expect((await p.refusal('remember', note('x', { trust_class: 'T-1' }))).data.field).toBe('trust_class');
    expect((await p.refusal('status', { artifact_id: `local:${'0'.repeat(32)}` })).message).toBe('unknown artifact: local:0000000000');
  });
});

describe('gate plugin with a gate', () => {
  it('forwards at once: sha256 handles, recall and status from the gate', async () => {
    const home = tempHome();
    const gate = await gateAt(home);
    const p = await plugin({ home, negotiate: true });
    const text = uniqueText('online quetzal');
    const r = await p.tool('remember', note(text));
    expect(r.artifact_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r).toMatchObject({ state: 'L1_SCANNED', sub_level: 'L1' });
    const hits = await p.tool('recall', { query: 'quetzal' });
    expect(hits.results.map((h: any) => h.artifact_id)).toEqual([r.artifact_id]);
    expect((await p.tool('status', { artifact_id: r.artifact_id })).state).toBe('L1_SCANNED');
    const atGate = await gate.socket('gv.status', { artifact_id: r.artifact_id });
    expect(atGate.result.workarea).toBe(`plugin/${p.session}`);
  });
});

describe('a gate that appears halfway', () => {
  it('what was held is forwarded exactly once, and the mapping is kept across restarts', async () => {
    const home = tempHome();
    const p = await plugin({ home });
    const a = await p.tool('remember', note(uniqueText('before one')));
    const b = await p.tool('remember', note(uniqueText('before two'), { producer: { name: 'scout', kind: 'agent' } }));
    expect([a.state, b.state]).toEqual(['LOCAL', 'LOCAL']);

    const gate = await gateAt(home);
    // The next call finds the gate and forwards what waited.
    const status = await p.tool('status', { artifact_id: a.artifact_id });
    expect(status.artifact_id).toMatch(/^sha256:/);
    expect(status).toMatchObject({ state: 'L1_SCANNED', local_id: a.artifact_id });
    const after = await p.tool('remember', note(uniqueText('after')));
    expect(after.artifact_id).toMatch(/^sha256:/);
    expect((await p.tool('pending', {})).pending.filter((x: any) => x.state === 'LOCAL')).toEqual([]);

    // A second plugin process on the same store forwards nothing again.
    await p.stop();
    running.splice(running.indexOf(p), 1);
    const again = await plugin({ home, store: p.store, session: p.session });
    expect((await again.tool('status', { artifact_id: b.artifact_id })).local_id).toBe(b.artifact_id);
    const ingests = (await gate.socket('gv.inventory', { limit: 200 })).result;
    expect(ingests.total).toBe(3);
    // The subagent's area was related to the session's once both reached the gate.
    const lineage = (await gate.socket('gv.lineage', { workarea: `plugin/${p.session}/scout` })).result;
    expect(lineage.edges).toContainEqual(expect.objectContaining({ source: `plugin/${p.session}/scout`, target: `plugin/${p.session}`, provenance: 'declared', kind: 'opened_by' }));
  });
});
