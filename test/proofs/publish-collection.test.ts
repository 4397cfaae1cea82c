import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { verifyCollection } from '@gate/client';
import { clone, refusal } from '../harness/proof-refusal.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reader }, ingestId } = useGate({ kind: 'in-process', keys: { agent: 'agent', reader: 'reader' } });

let stranger: string;
let reviewer: string;
const promoted: string[] = [];
let held: string;
let waiting: string;

const ingest = (content = uniqueText('collection')) => ingestId(agent.key, { space: 'team', content, workarea: 'tests/publish', source_uri: 'test://publish' });
async function promote(id: string): Promise<void> {
  await gate.readBody(reviewer, id);
  expect((await gate.rpc(reviewer, 'gv.promote', { artifact_id: id })).result?.state).toBe('ACTIVE');
}

beforeAll(async () => {
  await gate.socket('gv.space_create', { name: 'team', policy: 'auto' });
  stranger = (await gate.key('reader')).key;
  reviewer = (await gate.key('reviewer')).key;
  await gate.socket('gv.grant', {
    action: 'issue',
    grants: [
      { principal: agent.identity, space: 'team', capabilities: ['read', 'contribute'] },
      { principal: reader.identity, space: 'team', capabilities: ['read'] },
    ],
  });
  for (let i = 0; i < 5; i++) {
    const id = await ingest();
    await promote(id);
    promoted.push(id);
  }
  held = await ingest();
  waiting = await ingest();
});

describe('gv.publish and gv.collection', () => {
  let first: any;

  it("gv.publish (admin) cuts version 1 of the space's ACTIVE rows at the journal's position and journals it", async () => {
    expect((await gate.rpc(agent.key, 'gv.publish', { space: 'team' })).error?.data).toEqual({ required: 'admin', role: 'agent' });
    const before = (await gate.socket('gv.checkpoint')).result.size;
    first = (await gate.socket('gv.publish', { space: 'team' })).result;
    expect(first).toMatchObject({ space: 'team', name: 'team', version: 1, rows: 5, journal_size: before });
    expect(first.collection_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The publish is an internal event: it is in the journal (and its tree), not in gv.events.
    const chain = (await gate.socket('gv.audit_chain')).result;
    expect(chain.types['collection-published']).toBe(1);
    const served = (await gate.socket('gv.events', { limit: 1000 })).result.events.map((e: { type: string }) => e.type);
    expect(served).not.toContain('collection-published');
  });

  it('a reader with read on the space gets it whole and checks it with the deployment id alone: ids, content hashes, the cut, the publish', async () => {
    const answer = (await gate.rpc(reader.key, 'gv.collection', { space: 'team' })).result;
    expect(answer.collection).toMatchObject({ format: 'gate.collection/1', deployment_id: gate.deploymentId, version: 1, rows: 5, journal_size: first.journal_size });
    expect(answer.rows.map((r: { artifact_id: string }) => r.artifact_id)).toEqual([...promoted].sort());
    expect(answer.next_offset).toBeNull();
    const checked = await verifyCollection(gate.deploymentId, answer);
    expect(checked).toMatchObject({ collection_id: first.collection_id, rows_checked: 5 });
    // A row's content hash is its bytes' hash: whoever holds the bytes checks them against the collection.
    const node = (await gate.rpc(reader.key, 'gv.node', { artifact_id: promoted[0], body: true })).result;
    const row = answer.rows.find((r: { artifact_id: string }) => r.artifact_id === promoted[0]);
    expect(row.content_hash).toBe(`sha256:${createHash('sha256').update(node.body).digest('hex')}`);
  });

  it('anything changed is refused: a row, the header, the signature, the publish event, another deployment', async () => {
    const answer = (await gate.rpc(reader.key, 'gv.collection', { space: 'team' })).result;
    const row = clone(answer);
    row.rows[2].content_hash = `sha256:${'0'.repeat(64)}`;
    expect(await refusal(verifyCollection(gate.deploymentId, row))).toBe('collection');
    const dropped = clone(answer);
    dropped.rows.pop();
    expect(await refusal(verifyCollection(gate.deploymentId, dropped))).toBe('collection');
    const header = clone(answer);
    header.collection.rows = 4;
    expect(await refusal(verifyCollection(gate.deploymentId, header))).toBe('collection');
    const signature = clone(answer);
    signature.signature = answer.publish.sig;
    expect(await refusal(verifyCollection(gate.deploymentId, signature))).toBe('signature');
    const publish = clone(answer);
    publish.publish.body = publish.publish.body.replace('"collection-published"', '"collection-publishe"');
    expect(await refusal(verifyCollection(gate.deploymentId, publish))).toBe('collection');
    const unproven = clone(answer);
    unproven.publish.inclusion.hashes[0] = unproven.publish.inclusion.hashes[1];
    expect(await refusal(verifyCollection(gate.deploymentId, unproven))).toBe('inclusion');
    expect(await refusal(verifyCollection('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', answer))).toBe('wrong_log');
  });

  it('pages put together check against the rows root; one row is proven a member; a held row is in none', async () => {
    const pages: any[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page: any = (await gate.rpc(reader.key, 'gv.collection', { space: 'team', offset, limit: 2 })).result;
      pages.push(page);
      offset = page.next_offset;
    }
    expect(pages.map((p) => p.rows.length)).toEqual([2, 2, 1]);
    expect((await verifyCollection(gate.deploymentId, pages[1])).rows_checked).toBe(0);
    expect((await verifyCollection(gate.deploymentId, pages[0], pages.flatMap((p) => p.rows))).rows_checked).toBe(5);

    const member = (await gate.rpc(reader.key, 'gv.collection', { space: 'team', artifact_id: promoted[3] })).result;
    expect(member.row.artifact_id).toBe(promoted[3]);
    expect((await verifyCollection(gate.deploymentId, member)).rows_checked).toBe(1);
    const forged = clone(member);
    forged.row.size_bytes += 1;
    expect(await refusal(verifyCollection(gate.deploymentId, forged))).toBe('inclusion');
    const notMember = (await gate.rpc(reader.key, 'gv.collection', { space: 'team', artifact_id: held })).result;
    expect(notMember.row).toBeNull();
  });

  it('a later publish is version 2 with the newly promoted row; version 1 is served as it was', async () => {
    await promote(waiting);
    const second = (await gate.socket('gv.publish', { space: 'team' })).result;
    expect(second).toMatchObject({ version: 2, rows: 6 });
    expect(second.journal_size).toBeGreaterThan(first.journal_size);
    const v1 = (await gate.rpc(reader.key, 'gv.collection', { space: 'team', version: 1 })).result;
    const v2 = (await gate.rpc(reader.key, 'gv.collection', { space: 'team' })).result;
    expect(v1.collection_id).toBe(first.collection_id);
    expect(v1.rows).toHaveLength(5);
    expect(v2.rows.map((r: { artifact_id: string }) => r.artifact_id)).toContain(waiting);
    expect((await verifyCollection(gate.deploymentId, v1)).rows_checked).toBe(5);
    expect((await verifyCollection(gate.deploymentId, v2)).rows_checked).toBe(6);
    const named = (await gate.socket('gv.publish', { space: 'team', name: 'release-1' })).result;
    expect(named).toMatchObject({ name: 'release-1', version: 1, rows: 6 });
  });

  it('refuses a reader without read on the space, an unknown collection or version, and a row beside a page', async () => {
    expect((await gate.rpc(stranger, 'gv.collection', { space: 'team' })).error?.data).toMatchObject({ reason: 'not_granted', space: 'team', capability: 'read' });
    expect((await gate.rpc(reader.key, 'gv.collection', { space: 'team', name: 'nothing' })).error).toMatchObject({ code: -32602, data: { field: 'name' } });
    expect((await gate.rpc(reader.key, 'gv.collection', { space: 'team', version: 99 })).error).toMatchObject({ code: -32602, data: { field: 'version' } });
    expect((await gate.rpc(reader.key, 'gv.collection', { space: 'team', artifact_id: held, limit: 3 })).error?.data).toMatchObject({ field: 'artifact_id' });
    expect((await gate.rpc(reader.key, 'gv.collection', { space: 'team', offset: 50 })).error?.data).toMatchObject({ field: 'offset' });
    expect((await gate.socket('gv.publish', { space: 'nowhere' })).error?.data).toMatchObject({ field: 'space' });
    expect((await gate.socket('gv.publish', { space: 'team', name: '../x' })).error?.code).toBe(-32602);
  });

  it('gate proof verify checks a saved collection offline; gv.rebuild replays the collections equal', async () => {
    const dir = dirname(gate.home);
    const answer = await gate.rpc(reader.key, 'gv.collection', { space: 'team' });
    writeFileSync(join(dir, 'collection.json'), JSON.stringify(answer));
    const ok = spawnSync(process.execPath, [CLI, 'proof', 'verify', join(dir, 'collection.json'), '--deployment-id', gate.deploymentId], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('collection team version 2 of space team ok');
    expect(ok.stdout).toContain('all 6 rows checked');
    answer.result.rows[0].trust_class = 'T-5';
    writeFileSync(join(dir, 'collection-bad.json'), JSON.stringify(answer));
    const bad = spawnSync(process.execPath, [CLI, 'proof', 'verify', join(dir, 'collection-bad.json'), '--deployment-id', gate.deploymentId], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('REFUSED (collection)');

    const rebuild = await gate.socket('gv.rebuild');
    expect(rebuild.error, JSON.stringify(rebuild.error?.data?.differing ?? rebuild.error)).toBeUndefined();
    const rebuilt = rebuild.result;
    expect(rebuilt.equal).toBe(true);
    expect(rebuilt.tables.collections.equal).toBe(true);
  });
});
