import { afterAll, describe, it } from 'vitest';
import { tempHome, uniqueText } from '../harness/gate-process.js';
import { InProcessServer } from '../harness/in-process-server.js';
import { PluginProcess } from '../harness/plugin-process.js';
import { ServedOutputSchemas, expectCasesForEveryTool, type SchemaCase } from '../harness/output-schemas.js';

const running: Array<{ stop(): Promise<unknown> }> = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

const INVALID = -32602;
const note = (extra: Record<string, unknown> = {}) => ({ content: uniqueText('plugin schema'), content_type: 'memory', source_uri: 'test://plugin-schema', ...extra });

/** Runs every case through the stdio client and checks each result against the plugin tier's served schemas. */
async function checkAll(p: PluginProcess, cases: Record<string, SchemaCase[]>) {
  const schemas = new ServedOutputSchemas((await p.client.listTools()).tools);
  expectCasesForEveryTool(schemas.names, cases);
  for (const [name, list] of Object.entries(cases)) {
    for (const c of list) schemas.check(name, c, await p.client.callTool({ name, arguments: c.args }));
  }
}

/** The cases both ways of answering share: the tier's own input rules and its session area. */
function commonCases(p: PluginProcess, handle: string): Record<string, SchemaCase[]> {
  const own = `plugin/${p.session}`;
  return {
    'gate.remember': [
      { kind: 'ok', args: note() },
      { kind: 'ok', args: note({ producer: { name: 'helper', kind: 'agent' } }) },
      { kind: 'ok', args: note({ content_type: 'tool_call', workarea: 'notes/evidence' }) },
      { kind: 'arguments', args: note({ trust_class: 'T-1' }), code: INVALID, data: { field: 'trust_class' } },
      { kind: 'lifecycle', args: note({ workarea: 'notes/done' }), code: -32010, data: { reason: 'work_complete' } },
    ],
    'gate.recall': [
      { kind: 'ok', args: { query: 'plugin schema' } },
      { kind: 'ok', args: { workarea: own, include_evidence: false } },
      { kind: 'arguments', args: { query: 'x', k: 1000 }, code: INVALID, data: { field: 'k' } },
      { kind: 'arguments', args: {}, code: INVALID, data: { field: 'query' } },
    ],
    'gate.status': [
      { kind: 'ok', args: { artifact_id: handle } },
      { kind: 'arguments', args: { artifact_id: 'sha256:xyz' }, code: INVALID, data: { field: 'artifact_id' } },
      { kind: 'handle', args: { artifact_id: `local:${'0'.repeat(32)}` }, code: INVALID },
    ],
    'gate.pending': [
      { kind: 'ok', args: {} },
      { kind: 'ok', args: { limit: 1 } },
      { kind: 'arguments', args: { limit: 1001 }, code: INVALID, data: { field: 'limit' } },
    ],
    'gate.workarea': [
      { kind: 'ok', args: { workarea: own } },
      { kind: 'ok', args: { workarea: 'notes/done' } },
      { kind: 'arguments', args: { workarea: '' }, code: INVALID, data: { field: 'workarea' } },
      { kind: 'area', args: { workarea: 'notes/never' }, code: INVALID, data: { field: 'workarea' } },
    ],
    'gate.complete': [
      { kind: 'ok', args: { workarea: 'notes/finish', note: 'done' } },
      { kind: 'arguments', args: { workarea: 'notes/finish', reopen: true }, code: INVALID },
      { kind: 'area', args: { workarea: 'notes/never' }, code: INVALID, data: { field: 'workarea' } },
    ],
    'gate.workarea_relate': [
      { kind: 'ok', args: { workarea: 'notes/child', kind: 'opened_by', target: 'notes/parent' } },
      { kind: 'arguments', args: { workarea: 'notes/child', kind: 'unlinks', target: 'notes/parent' }, code: INVALID, data: { field: 'kind' } },
      { kind: 'area', args: { workarea: 'notes/never', kind: 'continues', target: 'notes/parent' }, code: INVALID, data: { field: 'workarea' } },
    ],
    'gate.lineage': [
      { kind: 'ok', args: {} },
      { kind: 'ok', args: { workarea: 'notes/child' } },
      { kind: 'arguments', args: { workarea: 'a/b/c/d/e/f/g/h/i' }, code: INVALID, data: { field: 'workarea' } },
    ],
  };
}

async function prepared(p: PluginProcess): Promise<string> {
  const first = await p.tool('remember', note());
  for (const workarea of ['notes/done', 'notes/finish', 'notes/parent', 'notes/child']) await p.tool('remember', note({ workarea }));
  await p.tool('complete', { workarea: 'notes/done' });
  return first.artifact_id;
}

describe('every plugin-tier tool answers within the outputSchema its tools/list serves (stdio, ajv 2020)', () => {
  it('with no gate running: answers from the local store', async () => {
    const p = await PluginProcess.start({ home: tempHome() });
    running.push(p);
    const handle = await prepared(p);
    const cases = commonCases(p, handle);
    // With no gate, a gate id can be answered for by nobody.
    cases['gate.status']!.push({ kind: 'lifecycle', args: { artifact_id: `sha256:${'0'.repeat(64)}` }, code: -32010, data: { reason: 'no_gate' } });
    await checkAll(p, cases);
  });

  it('with a gate: answers from the gate, promoted rows and gate refusals included', async () => {
    const home = tempHome();
    const gate = await InProcessServer.start({}, home);
    running.push(gate);
    const p = await PluginProcess.start({ home, negotiate: true });
    running.push(p);
    const handle = await prepared(p);
    const reviewer = await gate.key('reviewer');
    await gate.readBody(reviewer.key, handle);
    const promoted = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: handle });
    if (promoted.error) throw new Error(JSON.stringify(promoted.error));
    const cases = commonCases(p, handle);
    cases['gate.status']!.push({ kind: 'unknown_row', args: { artifact_id: `sha256:${'0'.repeat(64)}` }, code: INVALID });
    // The gate finds the cycle; with no gate the plugin keeps the relation until one answers.
    cases['gate.workarea_relate']!.push({ kind: 'cycle', args: { workarea: 'notes/parent', kind: 'continues', target: 'notes/child' }, code: INVALID, data: { reason: 'cycle' } });
    await checkAll(p, cases);
  });
});
