import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { a, b, reviewer } } = useGate({ kind: 'in-process', keys: { a: 'agent', b: 'agent', reviewer: 'reviewer' } });

const NONEXISTENT = 'sha256:' + '0123456789abcdef'.repeat(4);
const byId = ['gv.status', 'gv.why', 'gv.audit', 'gv.node'];

describe('rule U: another identity held row answers exactly as an id that names no row', () => {
  it('is byte-identical to a nonexistent id for every by-id verb, with and without the prefix', async () => {
    const held = await gate.rpc(a.key, 'gv.ingest', {
      content: 'rule U subject: a held memory nobody else may see',
      workarea: 'tests/u',
      kind: 'memory',
      source_uri: 'test://u',
    });
    const id: string = held.result.artifact_id;
    for (const method of byId) {
      for (const operand of [id, id.slice(7)]) {
        const forHeld = await gate.http('POST', '/rpc', { key: b.key, body: { jsonrpc: '2.0', id: 7, method, params: { artifact_id: operand } } });
        const ghost = NONEXISTENT.slice(0, 16) === id.slice(0, 16) ? 'sha256:' + 'f'.repeat(64) : NONEXISTENT;
        const forGhost = await gate.http('POST', '/rpc', {
          key: b.key,
          body: { jsonrpc: '2.0', id: 7, method, params: { artifact_id: ghost } },
        });
        expect(forHeld.status).toBe(200);
        expect(forHeld.json.error).toEqual({ code: -32602, message: `unknown artifact: ${id.slice(0, 16)}` });
        // Identical apart from the 16 characters of the id the caller itself sent.
        expect(forHeld.text.replace(id.slice(0, 16), 'X')).toBe(forGhost.text.replace(ghost.slice(0, 16), 'X'));
      }
    }
  });

  it('the writer and a reviewer can read it', async () => {
    const held = await gate.rpc(a.key, 'gv.ingest', { content: 'readable by writer and reviewer', workarea: 'tests/u', kind: 'memory', source_uri: 'test://u' });
    const id = held.result.artifact_id;
    expect((await gate.rpc(a.key, 'gv.status', { artifact_id: id })).result.state).toBe('L1_SCANNED');
    expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).toBe('L1_SCANNED');
  });
});

describe('canary: a unique string agent A ingests is absent from every answer agent B gets until it is promoted', () => {
  it('holds across every verb B can call, then recall serves it after promotion', async () => {
    const canary = `zqxcanary${Date.now().toString(36)}wv`;
    const made = await gate.rpc(a.key, 'gv.ingest', {
      content: `The canary word is ${canary} and nobody but the writer may read it.`,
      workarea: 'tests/canary',
      kind: 'memory',
      source_uri: 'test://canary',
      producer: { name: 'canary-writer', kind: 'agent' },
    });
    const id: string = made.result.artifact_id;
    // A promoted neighbour the reviewer relates to the canary row, so every graph-shaped answer has an edge to hide.
    const neighbour = (await gate.rpc(b.key, 'gv.ingest', {
      content: 'a promoted neighbour of the canary',
      workarea: 'tests/canary-n',
      kind: 'memory',
      source_uri: 'test://n',
    })).result.artifact_id as string;
    await gate.readBody(reviewer.key, neighbour);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: neighbour });
    // Objected to by the operator (which holds auto-promotion) and graded, so review answers have something of the canary to leak.
    expect((await gate.socket('gv.comment', { artifact_id: id, kind: 'objection', body: `about ${canary}` })).error).toBeUndefined();
    expect((await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id })).result.state).toBe('L2_SCORED');
    expect((await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: id, kind: 'extends', parent: neighbour })).result.changed).toBe(true);
    const answersForB = async () => {
      const calls: Array<[string, unknown]> = [
        ['gv.ping', {}],
        ['gv.describe', {}],
        ['gv.spaces', {}],
        ['gv.inventory', {}],
        ['gv.inventory', { q: canary }],
        ['gv.inventory', { q: id.slice(7, 20) }],
        ['gv.inventory', { states: ['L1_SCANNED', 'L1B_FLAGGED', 'L0_RAW'] }],
        ['gv.pending', {}],
        ['gv.recall', { query: canary }],
        ['gv.recall', { query: canary, scope: 'all' }],
        ['gv.recall', { query: `canary word ${canary}`, spaces: ['main'] }],
        ['gv.events', { limit: 1000 }],
        ['gv.events', { limit: 1000, direction: 'backward' }],
        ['gv.events', { limit: 1000, workarea: 'tests/canary' }],
        ['gv.status', { artifact_id: id }],
        ['gv.why', { artifact_id: id }],
        ['gv.audit', { artifact_id: id }],
        ['gv.node', { artifact_id: id }],
        ['gv.node', { artifact_id: id, body: true }],
        ['gv.ingest', { content: 'child of the canary', workarea: 'tests/canary-b', kind: 'memory', source_uri: 'test://b', derives_from: [id] }],
        ['gv.recall', { query: canary, mode: 'vector' }],
        ['gv.recall', { query: canary, mode: 'hybrid', include_superseded: true, include_hidden: true }],
        ['gv.recall', { query: canary, workarea: 'tests/canary' }],
        ['gv.recall', { query: canary, scope: 'workarea', workarea: 'tests/canary' }],
        ['gv.recall', { workarea: 'tests/canary' }],
        ['gv.relations', { artifact_id: neighbour }],
        ['gv.relations', { artifact_id: id }],
        ['gv.tip', { artifact_id: neighbour }],
        ['gv.tip', { artifact_id: id }],
        ['gv.node', { artifact_id: neighbour }],
        ['gv.graph', {}],
        ['gv.graph', { states: ['L1_SCANNED', 'L1B_FLAGGED'] }],
        ['gv.graph', { workarea: 'tests/canary-n' }],
        ['gv.graph', { workarea: 'tests/canary' }],
        ['gv.lineage', {}],
        ['gv.lineage', { workarea: 'tests/canary' }],
        ['gv.lineage', { workarea: 'tests/canary-n' }],
        ['gv.workarea', { workarea: 'tests/canary' }],
        ['gv.rank', { artifact_id: id, weight: 1 }],
        ['gv.replacements', {}],
        // Review: nothing of a held row, its verdicts, runs or comments reaches another identity.
        ['gv.approval', { artifact_id: id }],
        ['gv.approval', { artifact_id: neighbour }],
        ['gv.comments', { artifact_id: id }],
        ['gv.comment', { artifact_id: id, body: 'a comment on the canary' }],
        ['gv.comment_retract', { artifact_id: id, event_id: 'a'.repeat(64) }],
        ['gv.who_can_sign', { artifact_id: id }],
        ['gv.ask_to_sign', { artifact_id: id }],
        ['gv.cancel', { artifact_id: id }],
        ['gv.defer', { artifact_id: id }],
        ['gv.countersign_status', { artifact_id: id }],
        ['gv.countersign_status', {}],
        ['gv.review_runs', {}],
        ['gv.review_runs', { q: id.slice(7, 20) }],
        ['gv.engagement', {}],
        ['gv.bans', {}],
        ['gv.question', { question: id }],
      ];
      const texts: string[] = [];
      for (const [method, params] of calls) {
        const res = await gate.http('POST', '/rpc', { key: b.key, body: { jsonrpc: '2.0', id: 1, method, params } });
        texts.push(`${method} ${res.text}`);
      }
      return texts;
    };
    for (const text of await answersForB()) {
      expect(text).not.toContain(canary);
      expect(text).not.toContain('canary-writer');
      // The held row's area is no node and no edge end of B's lineage (B's own operand may echo it).
      for (const field of ['name', 'source', 'target']) expect(text).not.toContain(`"${field}":"tests/canary"`);
      // The id itself appears only where B sent it and got the unknown-artifact answer.
      if (text.includes(id.slice(7, 40))) throw new Error(`B learned the canary row id from: ${text.slice(0, 200)}`);
    }
    await gate.readBody(reviewer.key, id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
    const recalled = await gate.rpc(b.key, 'gv.recall', { query: canary, mode: 'lexical' });
    expect(recalled.result.hits).toHaveLength(1);
    expect(recalled.result.hits[0].body).toContain(canary);
    expect(recalled.result.hits[0].held).toBe(false);
  });
});
