import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { asker, other, reviewer } } = useGate({ kind: 'in-process', keys: { asker: 'agent', other: 'agent', reviewer: 'reviewer' } });
let person: SignedInPerson;
let personReader: SignedInPerson;

beforeAll(async () => {
  person = await signIn(gate, { role: 'reviewer', name: 'Canary Reader' });
  personReader = await signIn(gate, { role: 'reader' });
});

describe("canary: a held question's words never reach another identity", () => {
  it('through any verb or event below reviewer, nor the open questions people are shown, until it is promoted', async () => {
    const canary = `qcanary${Date.now().toString(36)}zx`;
    const made = await gate.rpc(asker.key, 'gv.ingest', {
      content: JSON.stringify({ format: 'question/1', question: `Who signs the ${canary} contract?`, context: `about ${canary}` }),
      workarea: 'tests/q-canary',
      kind: 'question',
      source_uri: `test://q-canary/${canary}`,
      addressed_to: { kinds: ['person'], names: ['canary-reader'] },
      producer: { name: 'canary-asker', kind: 'agent' },
    });
    const id: string = made.result.artifact_id;
    const answerParams = {
      content: JSON.stringify({ format: 'answer/1', answer: 'an answer to a question I cannot see' }),
      workarea: 'tests/q-canary-b',
      kind: 'answer',
      source_uri: 'test://b',
      derives_from: [id],
    };
    const calls: Array<[string, unknown]> = [
      ['gv.question', { question: id }],
      ['gv.ingest', answerParams],
      ['gv.recall', { query: canary }],
      ['gv.recall', { query: canary, scope: 'all' }],
      ['gv.recall', { workarea: 'tests/q-canary' }],
      ['gv.events', { limit: 1000 }],
      ['gv.events', { limit: 1000, types: ['question-routed', 'question-wait-over', 'question-referred', 'question-answered-by-crew'] }],
      ['gv.graph', {}],
      ['gv.graph', { kinds: ['question'] }],
      ['gv.inventory', { q: canary }],
      ['gv.pending', {}],
      ['gv.lineage', { workarea: 'tests/q-canary' }],
      ['gv.node', { artifact_id: id, body: true }],
      ['gv.bans', {}],
      ['gv.review', {}],
    ];
    const seen = async (credential: string) => {
      const texts: string[] = [];
      for (const [method, params] of calls) {
        const res = await gate.http('POST', '/rpc', { key: credential, body: { jsonrpc: '2.0', id: 1, method, params } });
        texts.push(`${method} ${res.text}`);
      }
      return texts;
    };
    for (const credential of [other.key, personReader.accessToken]) {
      for (const text of await seen(credential)) {
        expect(text).not.toContain(canary);
        expect(text).not.toContain('canary-asker');
      }
    }
    // A person who reviews sees held rows in the queue's items, as review needs, but the questions
    // waiting for people list only routed (so promoted) ones: the held question is not there.
    const queue = (await gate.rpc(person.accessToken, 'gv.review', {})).result;
    expect(JSON.stringify(queue.questions)).not.toContain(canary);
    expect(queue.items.map((i: any) => i.artifact_id)).toContain(id);
    // Nothing routes a held question: no question-routed event exists for it.
    const routed = await gate.rpc(reviewer.key, 'gv.events', { types: ['question-routed'], limit: 1000 });
    expect(routed.result.events.map((e: any) => e.artifact_id)).not.toContain(id);

    // Promoted, it is routed and its words are served to readers and to the people it names.
    await gate.readBody(reviewer.key, id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
    expect((await gate.rpc(other.key, 'gv.question', { question: id })).result).toMatchObject({ state: 'with_people' });
    const open = (await gate.rpc(person.accessToken, 'gv.review', {})).result.questions;
    expect(open[0]).toMatchObject({ question: id, named: true });
    expect(open[0].body).toContain(canary);
  });
});
