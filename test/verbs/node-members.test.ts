import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { writer, other, reviewer } } = useGate({ kind: 'unit', keys: { writer: 'agent', other: 'agent', reviewer: 'reviewer' } });

const node = async (key: string, id: string) => (await gate.rpc(key, 'gv.node', { artifact_id: id })).result;

describe("gv.node's members[] (docs/protocol.md#gvnode)", () => {
  it('a bundle archive lists its retained files by path; the manifest is not a member; a claim has none', async () => {
    const zip = readFileSync(join(ROOT, 'fixtures', 'bundles', 'skill-valid.zip')).toString('base64');
    const bundle = (await gate.rpc(writer.key, 'gv.ingest_bundle', { content: zip, workarea: 'tests/members', source_uri: 'test://b' })).result;
    const expected = (bundle.members as Array<Record<string, any>>).map((m) => ({ path: m.path, artifact_id: m.artifact_id, state: m.state, size_bytes: m.size_bytes }));
    expect(expected.length).toBeGreaterThan(1);
    const archive = await node(writer.key, bundle.archive_artifact_id);
    expect(archive.members.map(({ path, artifact_id, state, size_bytes }: Record<string, any>) => ({ path, artifact_id, state, size_bytes }))).toEqual(expected);
    expect(archive.members.map((m: { artifact_id: string }) => m.artifact_id)).not.toContain(bundle.manifest_artifact_id);
    expect((await node(reviewer.key, bundle.archive_artifact_id)).members).toHaveLength(expected.length);
    expect((await node(writer.key, bundle.members[0].artifact_id)).members).toEqual([]);

    // Another agent cannot read the held archive at all (rule U), members or not.
    expect((await gate.rpc(other.key, 'gv.node', { artifact_id: bundle.archive_artifact_id })).error?.message).toMatch(/^unknown artifact/);
  });

  it('a project map with its archive lists the files retained from it', async () => {
    const zip = readFileSync(join(ROOT, 'fixtures', 'bundles', 'skill-valid.zip'));
    const bundle = (await gate.rpc(writer.key, 'gv.ingest_bundle', { content: zip.toString('base64'), workarea: 'tests/members/probe', source_uri: 'test://b' })).result;
    const manifest = JSON.parse((await gate.rpc(writer.key, 'gv.node', { artifact_id: bundle.manifest_artifact_id, body: true })).result.body);
    const members = manifest.members.map((m: Record<string, unknown>) => ({ path: m['path'], content_hash: m['content_hash'], size_bytes: m['size_bytes'], classification: 'source' }));
    const map = await gate.rpc(writer.key, 'gv.ingest_map', {
      manifest: { map_version: 'project_map/v1', project: 'members', produced_by: { name: 'mapper' }, members, nodes: [], edges: [], archive_hash: manifest.archive_hash, archive_size: manifest.archive_size },
      content: zip.toString('base64'),
      encoding: 'base64',
      workarea: 'tests/members/map',
      source_uri: 'test://map',
    });
    expect(map.error, JSON.stringify(map.error)).toBeUndefined();
    const served = (await node(writer.key, map.result.map_artifact_id)).members;
    expect(served.map((m: { path: string; artifact_id: string }) => [m.path, m.artifact_id])).toEqual(
      (map.result.members as Array<{ path: string; artifact_id: string }>).map((m) => [m.path, m.artifact_id]).sort(),
    );
  });
});
