import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { uniqueText } from '../harness/gate-process.js';
import { yazlZip } from '../../fixtures/make-fixtures.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const FILES: Array<[string, Buffer]> = [
  ['src/app.ts', Buffer.from('import { db } from "./db";\nexport const app = db;\n')],
  ['src/db.ts', Buffer.from('export const db = 1;\n')],
  ['README.md', Buffer.from('# demo\n')],
];
const members = () =>
  FILES.map(([path, b]) => ({ path, content_hash: sha(b), size_bytes: b.length, classification: path.endsWith('.md') ? 'document' : 'source' }));
const manifest = (project: string, extra: Record<string, unknown> = {}) => ({
  map_version: 'project_map/v1',
  project,
  produced_by: { name: 'mapper', version: '1.0.0' },
  members: members(),
  nodes: [
    { id: 'app', kind: 'module', path: 'src/app.ts' },
    { id: 'db', kind: 'module', path: 'src/db.ts' },
  ],
  edges: [{ source: 'app', target: 'db', kind: 'imports' }],
  ...extra,
});
const ingestMap = (params: Record<string, unknown>, key = agent.key) =>
  gate.rpc(key, 'gv.ingest_map', { workarea: 'tests/map', source_uri: 'test://map', ...params });

describe('gv.ingest_map', () => {
  it('a manifest alone is checked structurally and admitted as one gated artifact at T-5', async () => {
    const a = await ingestMap({ manifest: manifest(uniqueText('structural')) });
    expect(a.result).toMatchObject({ state: 'quarantined', validation: 'structural', artifact_state: 'L1_SCANNED', nodes: 2, edges: 1, duplicate: false, produced_by: { name: 'mapper', version: '1.0.0' } });
    expect(a.result.members.every((m: any) => m.artifact_id === null && m.state === null)).toBe(true);
    const status = await gate.rpc(reviewer.key, 'gv.inventory', { q: 'project_map' });
    expect(status.result.artifacts.find((r: any) => r.artifact_id === a.result.map_artifact_id)).toMatchObject({ content_type: 'project_map', trust_class: 'T-5' });
  });

  it('with its archive: valid, every member recomputed and retained', async () => {
    const zip = await yazlZip(FILES);
    const a = await ingestMap({ manifest: manifest(uniqueText('valid'), { archive_hash: sha(zip), archive_size: zip.length }), content: zip.toString('base64'), encoding: 'base64' });
    expect(a.result).toMatchObject({ state: 'quarantined', validation: 'valid' });
    expect(a.result.members.map((m: any) => [m.path, m.state])).toEqual([
      ['README.md', 'L1_SCANNED'],
      ['src/app.ts', 'L1_SCANNED'],
      ['src/db.ts', 'L1_SCANNED'],
    ]);
    const node = await gate.rpc(agent.key, 'gv.node', { artifact_id: a.result.members[1].artifact_id, body: true });
    expect(node.result.body).toBe(FILES[0]![1].toString());
  });

  it('its edges never enter the relation graph', async () => {
    const a = await ingestMap({ manifest: manifest(uniqueText('edges')) });
    await gate.readBody(reviewer.key, a.result.map_artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: a.result.map_artifact_id });
    expect((await gate.rpc(agent.key, 'gv.relations', { artifact_id: a.result.map_artifact_id })).result.relations).toEqual([]);
    const graph = await gate.rpc(reviewer.key, 'gv.graph', {});
    expect(graph.result.edges.filter((e: any) => e.source === a.result.map_artifact_id || e.target === a.result.map_artifact_id)).toEqual([]);
  });

  it('a manifest failing the whole check admits nothing and retains nothing', async () => {
    const before = (await gate.rpc(reviewer.key, 'gv.inventory', {})).result.total;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ manifest: { ...manifest('x'), map_version: 'project_map/v2' } }, 'map_invalid:schema:map_version'],
      [{ manifest: manifest('x', { edges: [{ source: 'app', target: 'nowhere', kind: 'imports' }] }) }, 'map_invalid:edge_unknown_node'],
      [{ manifest: manifest('x', { nodes: [{ id: 'a', kind: 'module' }, { id: 'a', kind: 'module' }], edges: [] }) }, 'map_invalid:duplicate_node'],
      [{ manifest: manifest('x', { members: [{ path: '../etc/passwd', content_hash: sha(Buffer.from('x')), size_bytes: 1, classification: 'source' }], nodes: [], edges: [] }) }, 'map_invalid:member_path:name_dot_segment'],
      [{ manifest: manifest('x', { archive_hash: sha(Buffer.from('x')) }) }, 'map_invalid:archive_fields'],
    ];
    for (const [params, reason] of cases) {
      const a = await ingestMap(params);
      expect(a.result, reason).toMatchObject({ state: 'refused', validation: 'failed', map_artifact_id: null, reason });
    }
    const zip = await yazlZip(FILES);
    const wrongMember = await ingestMap({
      manifest: manifest('x', { members: members().map((m, i) => (i === 0 ? { ...m, size_bytes: 1 } : m)), archive_hash: sha(zip), archive_size: zip.length }),
      content: zip.toString('base64'),
      encoding: 'base64',
    });
    expect(wrongMember.result).toMatchObject({ state: 'refused', reason: 'map_invalid:members_mismatch' });
    const badArchive = await ingestMap({ manifest: manifest('x', { archive_hash: sha(zip), archive_size: zip.length }), content: zip.subarray(0, 50).toString('base64'), encoding: 'base64' });
    expect(badArchive.result).toMatchObject({ state: 'refused', reason: 'archive_invalid:end_of_central_directory_missing' });
    expect((await gate.rpc(reviewer.key, 'gv.inventory', {})).result.total).toBe(before);
  });

  it("the same map again is a duplicate; another writer's copy of a map that waits for its countersign is a row of its own", async () => {
    const m = manifest(uniqueText('dup'));
    const first = await ingestMap({ manifest: m });
    const again = await ingestMap({ manifest: m });
    expect(again.result).toMatchObject({ duplicate: true, map_artifact_id: first.result.map_artifact_id, validation: 'structural' });
    expect((await ingestMap({ manifest: m }, other.key)).result.duplicate).toBe(false);
    // A map is T-5: a promotion ratifies it and it waits for a second authority's countersign, so
    // it is not promoted, and the same bytes from another writer are that writer's own row (docs/protocol.md#gvingest).
    const ratifiedOne = manifest(uniqueText('ratified'));
    const p = await ingestMap({ manifest: ratifiedOne });
    await gate.readBody(reviewer.key, p.result.map_artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: p.result.map_artifact_id })).result).toMatchObject({ state: 'L3_RATIFIED' });
    const theirs = (await ingestMap({ manifest: ratifiedOne }, other.key)).result;
    expect(theirs.duplicate).toBe(false);
    expect(theirs.map_artifact_id).not.toBe(p.result.map_artifact_id);
  });

  it('derives_from must be readable (rule U)', async () => {
    const held = await gate.rpc(other.key, 'gv.ingest', { content: uniqueText(), workarea: 'w', kind: 'memory', source_uri: 's' });
    const a = await ingestMap({ manifest: manifest(uniqueText('u')), derives_from: [held.result.artifact_id] });
    expect(a.error).toEqual({ code: -32602, message: `unknown artifact: ${held.result.artifact_id.slice(0, 16)}` });
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['content without encoding', { content: 'UEsFBg==' }, 'encoding'],
    ['encoding without content', { encoding: 'base64' }, 'encoding'],
    ['no manifest', { manifest: undefined }, 'manifest'],
    ['an unlisted field, by name', { edges: [] }, 'edges'],
    ['a null inside the manifest, by name', { manifest: { ...manifest('n'), project: null } }, 'manifest.project'],
  ];
  for (const [name, extra, field] of refusals) {
    it(`refuses ${name}`, async () => {
      const answer = await ingestMap({ manifest: manifest('r'), ...extra });
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(answer.error?.data?.field).toBe(field);
    });
  }
});
