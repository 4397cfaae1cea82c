import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { ReplacementRows, expectRefusal } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { reader, writer, reviewer, proposer } } = useGate({
  kind: 'unit',
  keys: { reader: 'reader', writer: 'agent', reviewer: 'reviewer', proposer: 'reviewer' },
});

let rows: ReplacementRows;
const word = `ospreyfact${Date.now().toString(36)}`;

beforeAll(async () => {
  rows = new ReplacementRows(gate, writer.key, reviewer.key);
  await gate.socket('gv.space_create', { name: 'elsewhere', policy: 'auto' });
  await gate.socket('gv.grant', {
    action: 'issue',
    grants: [{ principal: writer.identity, space: 'elsewhere', capabilities: ['read', 'contribute'] }],
  });
});

const promote = async (params: Record<string, unknown>, key = reviewer.key) => {
  await gate.readBody(key, params['artifact_id'] as string);
  return gate.rpc(key, 'gv.promote', params);
};
const events = async (id: string) => (await gate.socket('gv.why', { artifact_id: id })).result.events as Array<Record<string, any>>;
const recallIds = async (query: string) =>
  ((await gate.rpc(reader.key, 'gv.recall', { query, mode: 'lexical' })).result.hits as { artifact_id: string }[]).map((h) => h.artifact_id);

/** A refused promote-with-supersedes promotes nothing and supersedes nothing. */
async function expectUntouched(child: string, childState: string, parent: string, parentState = 'ACTIVE') {
  expect(await rows.state(child)).toBe(childState);
  expect(await rows.state(parent)).toBe(parentState);
  expect((await events(child)).map((e) => e.type)).not.toContain('promote');
  expect((await events(parent)).filter((e) => e.type === 'relation')).toEqual([]);
}

describe('gv.promote with supersedes', () => {
  it('promotes the row and supersedes the parent in one act; recall and tip answer the child', async () => {
    const parent = await rows.active({ content: `${word}alpha the old port is 8080` });
    const child = await rows.held({ content: `${word}alpha the new port is 8443` });
    expect(await recallIds(`${word}alpha`)).toEqual([parent]);

    // C4: the parent operand is accepted without its prefix too.
    const answer = await promote({ artifact_id: child, supersedes: parent.slice('sha256:'.length) });
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
    expect(answer.result).toMatchObject({ artifact_id: child, state: 'ACTIVE', provisional: true, supersedes: parent });
    expect([await rows.state(child), await rows.state(parent)]).toEqual(['ACTIVE', 'SUPERSEDED']);

    const relation = (await events(parent)).find((e) => e.type === 'relation')!;
    expect(relation).toMatchObject({ event_id: answer.result.relation_event_id, leaves: 'ACTIVE', enters: 'SUPERSEDED', by: reviewer.identity });
    const promoted = (await events(child)).find((e) => e.type === 'promote')!;
    expect(promoted.event_id).toBe(answer.result.event_id);
    // The relation is the very next journal event: the promote and the relation are one write.
    expect(relation.seq).toBe(promoted.seq + 1);

    expect(await recallIds(`${word}alpha`)).toEqual([child]);
    const tip = await gate.rpc(reader.key, 'gv.tip', { artifact_id: parent });
    expect(tip.result).toMatchObject({ head: child, natural_head: child });
    expect(tip.result.chain.map((m: { artifact_id: string }) => m.artifact_id)).toEqual([parent, child]);
    const relations = await gate.rpc(reader.key, 'gv.relations', { artifact_id: child });
    expect(relations.result.relations).toEqual([expect.objectContaining({ kind: 'supersedes', direction: 'parent', artifact_id: parent, by: reviewer.identity })]);
  });

  it('without supersedes the answer is as before: no supersedes field, no relation', async () => {
    const child = await rows.held();
    const answer = await promote({ artifact_id: child });
    expect(answer.result.state).toBe('ACTIVE');
    expect(answer.result).not.toHaveProperty('supersedes');
    expect(answer.result).not.toHaveProperty('relation_event_id');
  });

  it('refuses a row superseding itself, naming the field', async () => {
    const child = await rows.held();
    const answer = await promote({ artifact_id: child, supersedes: child });
    expectRefusal(answer, -32602);
    expect(answer.error?.data).toEqual({ field: 'supersedes' });
    expect(await rows.state(child)).toBe('L1_SCANNED');
  });

  it('answers a parent that names no row as an unknown artifact (rule U), and promotes nothing', async () => {
    const child = await rows.held();
    const missing = `sha256:${'cd'.repeat(32)}`;
    const answer = await promote({ artifact_id: child, supersedes: missing });
    expect(answer.error).toEqual({ code: -32602, message: `unknown artifact: ${missing.slice(0, 16)}` });
    expect(await rows.state(child)).toBe('L1_SCANNED');
  });

  it('refuses a parent in another space; the child stays unpromoted', async () => {
    const parent = await rows.active();
    const child = await rows.held({ space: 'elsewhere' });
    const answer = await promote({ artifact_id: child, supersedes: parent });
    expectRefusal(answer, -32010, 'relation_refused');
    expect(answer.error?.message).toContain('one space');
    await expectUntouched(child, 'L1_SCANNED', parent);
  });

  it('refuses a parent that is held, and one already SUPERSEDED; the child stays unpromoted', async () => {
    const held = await rows.held();
    const child = await rows.held();
    const first = await promote({ artifact_id: child, supersedes: held });
    expectRefusal(first, -32010, 'relation_refused');
    expect(first.error?.message).toContain('only an ACTIVE row can be superseded');
    await expectUntouched(child, 'L1_SCANNED', held, 'L1_SCANNED');

    const old = await rows.active();
    expect((await promote({ artifact_id: await rows.held(), supersedes: old })).result.state).toBe('ACTIVE');
    const late = await rows.held();
    expectRefusal(await promote({ artifact_id: late, supersedes: old }), -32010, 'relation_refused');
    expect(await rows.state(late)).toBe('L1_SCANNED');
    expect((await events(old)).filter((e) => e.type === 'relation')).toHaveLength(1);
  });

  it('refuses a parent a pending replacement group names, until the group is aborted', async () => {
    const parent = await rows.active();
    const planned = await rows.held();
    const proposed = await gate.rpc(proposer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [planned], reason: 'plan' });
    const groupId = proposed.result.group_id as string;
    const child = await rows.held();
    const answer = await promote({ artifact_id: child, supersedes: parent });
    expectRefusal(answer, -32010, 'replacement_pending');
    expect(answer.error?.data?.group_id).toBe(groupId);
    await expectUntouched(child, 'L1_SCANNED', parent);

    expect((await gate.rpc(reviewer.key, 'gv.replacement_abort', { group_id: groupId })).result.state).toBe('ABORTED');
    expect((await promote({ artifact_id: child, supersedes: parent })).result.supersedes).toBe(parent);
    expect(await rows.state(parent)).toBe('SUPERSEDED');
  });

  it('refuses a child a pending replacement group names: it moves with its group', async () => {
    const [parent, groupParent, child] = [await rows.active(), await rows.active(), await rows.held()];
    await gate.rpc(proposer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [groupParent], child_ids: [child], reason: 'plan' });
    expectRefusal(await promote({ artifact_id: child, supersedes: parent }), -32010, 'replacement_pending');
    await expectUntouched(child, 'L1_SCANNED', parent);
  });

  it('gv.relate keeps the same group rule: a parent a pending group names is not superseded directly', async () => {
    const [parent, planned, other] = [await rows.active(), await rows.held(), await rows.active()];
    await gate.rpc(proposer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [planned], reason: 'plan' });
    expectRefusal(await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: other, kind: 'supersedes', parent }), -32010, 'replacement_pending');
    expect(await rows.state(parent)).toBe('ACTIVE');
  });

  it('refuses a row whose promotion would only ratify it (T-5 waits for a countersign): nothing is ratified', async () => {
    const parent = await rows.active();
    const zip = readFileSync(join(ROOT, 'fixtures', 'bundles', 'skill-valid.zip')).toString('base64');
    const bundle = await gate.rpc(writer.key, 'gv.ingest_bundle', { content: zip, workarea: 'tests/replacement', source_uri: 'test://bundle' });
    const member = bundle.result.members.find((m: { state: string }) => m.state === 'L1_SCANNED').artifact_id as string;
    const answer = await promote({ artifact_id: member, supersedes: parent });
    expectRefusal(answer, -32010, 'relation_refused');
    expect(answer.error?.message).toContain('would enter L3_RATIFIED');
    await expectUntouched(member, 'L1_SCANNED', parent);
    // Without supersedes the same promotion ratifies, as it always did.
    expect((await promote({ artifact_id: member })).result.state).toBe('L3_RATIFIED');
  });

  it('keeps what promote requires: the author of the child is refused self_authored', async () => {
    const parent = await rows.active();
    const own = await rows.held({}, reviewer.key);
    expectRefusal(await promote({ artifact_id: own, supersedes: parent }), -32010, 'self_authored');
    await expectUntouched(own, 'L1_SCANNED', parent);
  });

  it('is a reviewer verb: an agent is refused naming both roles', async () => {
    const answer = await promote({ artifact_id: await rows.held(), supersedes: await rows.active() }, writer.key);
    expect(answer.error?.data).toEqual({ required: 'reviewer', role: 'agent' });
  });

  it('two children racing for one parent: exactly one supersedes it, the other stays unpromoted', async () => {
    const parent = await rows.active();
    const children = await Promise.all(Array.from({ length: 6 }, () => rows.held({ content: uniqueText('racer') })));
    const answers = await Promise.all(children.map((child) => promote({ artifact_id: child, supersedes: parent })));
    const won = answers.filter((a) => a.result?.state === 'ACTIVE');
    expect(won).toHaveLength(1);
    for (const [i, a] of answers.entries()) {
      if (a.result?.state === 'ACTIVE') continue;
      expectRefusal(a, -32010, 'relation_refused');
      expect(await rows.state(children[i]!)).toBe('L1_SCANNED');
    }
    expect((await events(parent)).filter((e) => e.type === 'relation')).toHaveLength(1);
  });

  it('rebuild equals live and the chain verifies after all of it', async () => {
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
    expect((await gate.socket('gv.audit_chain')).result.ok).toBe(true);
  });
});
