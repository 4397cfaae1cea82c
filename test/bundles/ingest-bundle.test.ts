import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { yazlZip } from '../../fixtures/make-fixtures.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer' } });

const fixture = (name: string) => readFileSync(join(ROOT, 'fixtures/bundles', name)).toString('base64');
const bundle = (content: string, extra: Record<string, unknown> = {}, key = agent.key) =>
  gate.rpc(key, 'gv.ingest_bundle', { content, workarea: 'tests/bundle', source_uri: 'test://bundle', ...extra });
const node = (id: string) => gate.rpc(reviewer.key, 'gv.status', { artifact_id: id });

describe('gv.ingest_bundle', () => {
  it('a valid skill bundle: the archive, its canonical manifest and each scanned member are retained at T-5', async () => {
    const a = await bundle(fixture('skill-valid.zip'), { producer: { name: 'packer', kind: 'tool' } });
    expect(a.result).toMatchObject({ state: 'quarantined', validation: 'valid', workarea: 'tests/bundle', space: 'main', producer: { name: 'packer', kind: 'tool' } });
    expect(a.result.members.map((m: any) => [m.path, m.classification, m.state])).toEqual([
      ['weather/SKILL.md', 'skill', 'L1_SCANNED'],
      ['weather/assets/icon.txt', 'asset', 'L1_SCANNED'],
      ['weather/docs/usage.md', 'document', 'L1_SCANNED'],
      ['weather/scripts/forecast.py', 'script', 'L1_SCANNED'],
    ]);
    const inventory = await gate.rpc(reviewer.key, 'gv.inventory', { limit: 200 });
    const rows = new Map(inventory.result.artifacts.map((r: any) => [r.artifact_id, r]));
    expect(rows.get(a.result.archive_artifact_id)).toMatchObject({ content_type: 'skill_archive', trust_class: 'T-5', state: 'L1_SCANNED' });
    expect(rows.get(a.result.manifest_artifact_id)).toMatchObject({ content_type: 'bundle_manifest', trust_class: 'T-5', state: 'RECORDED' });
    const types = a.result.members.map((m: any) => (rows.get(m.artifact_id) as any)?.content_type);
    expect(types).toEqual(['bundle_skill', 'bundle_asset', 'bundle_document', 'bundle_python']);
    for (const m of a.result.members) expect((rows.get(m.artifact_id) as any).trust_class).toBe('T-5');
    // The manifest row's bytes are the canonical manifest.
    const manifest = JSON.parse((await gate.rpc(agent.key, 'gv.node', { artifact_id: a.result.manifest_artifact_id, body: true })).result.body);
    expect(manifest).toMatchObject({ bundle_version: 1, archive_size: readFileSync(join(ROOT, 'fixtures/bundles/skill-valid.zip')).length });
    expect(manifest.members.map((m: any) => m.path)).toEqual(a.result.members.map((m: any) => m.path));
    // The archive's bytes are not text: its body is not served as if it were.
    const archiveNode = await gate.rpc(agent.key, 'gv.node', { artifact_id: a.result.archive_artifact_id, body: true });
    expect(archiveNode.result).toMatchObject({ body: null, body_exact: false });
    // The same archive again answers what was retained.
    const again = await bundle(fixture('skill-valid.zip'));
    expect(again.result).toMatchObject({ duplicate: true, archive_artifact_id: a.result.archive_artifact_id, manifest_artifact_id: a.result.manifest_artifact_id });
    expect(again.result.members.map((m: any) => m.artifact_id)).toEqual(a.result.members.map((m: any) => m.artifact_id));
  });

  it('a manifest sent with the archive is recomputed in full: a difference fails it', async () => {
    const zip = await yazlZip([['m/SKILL.md', Buffer.from('# m\n')], ['m/a.md', Buffer.from('a')]]);
    const first = await bundle(zip.toString('base64'), {}, other.key);
    const manifest = JSON.parse((await gate.rpc(other.key, 'gv.node', { artifact_id: first.result.manifest_artifact_id, body: true })).result.body);
    const zip2 = await yazlZip([['n/SKILL.md', Buffer.from('# n\n')], ['n/a.md', Buffer.from('a')]]);
    const wrong = await bundle(zip2.toString('base64'), { manifest });
    expect(wrong.result).toMatchObject({ validation: 'failed', reason: 'archive_invalid:manifest_mismatch' });
  });

  it('a member the scanner flags holds itself and the archive that carries it', async () => {
    const secret = `token = "ghp_${'Zq8'.repeat(12)}"\n`;
    const zip = await yazlZip([['f/SKILL.md', Buffer.from('# f\n')], ['f/scripts/deploy.sh', Buffer.from(secret)]]);
    const a = await bundle(zip.toString('base64'));
    expect(a.result.members.find((m: any) => m.path === 'f/scripts/deploy.sh').state).toBe('L1B_FLAGGED');
    expect((await node(a.result.archive_artifact_id)).result.state).toBe('L1B_FLAGGED');
  });

  for (const [file, detail] of [['symlink.zip', 'symlink'], ['zip-bomb.zip', 'ratio_exceeded'], ['traversal-dotdot.zip', 'name_dot_segment'], ['truncated.zip', 'end_of_central_directory_missing']]) {
    it(`failed validation (${file}) retains only the archive, with archive_invalid:${detail}`, async () => {
      const before = (await gate.rpc(reviewer.key, 'gv.inventory', {})).result.total;
      const a = await bundle(fixture(file!));
      expect(a.result).toMatchObject({ state: 'quarantined', validation: 'failed', manifest_artifact_id: null, members: [], reason: `archive_invalid:${detail}` });
      expect((await gate.rpc(reviewer.key, 'gv.inventory', {})).result.total).toBe(before + 1);
      expect((await node(a.result.archive_artifact_id)).result).toMatchObject({ state: 'L1B_FLAGGED' });
    });
  }

  it('the archive limits come from [bundle] in the config', async () => {
    const small = await UnitGate.open({ env: { GATE_BUNDLE_ARCHIVE_MAX_BYTES: '300' } });
    try {
      const key = (await small.key('agent')).key;
      const a = await small.rpc(key, 'gv.ingest_bundle', { content: fixture('skill-valid.zip'), workarea: 'w', source_uri: 's' });
      expect(a.result.reason).toBe('archive_invalid:archive_too_large');
    } finally {
      await small.stop();
    }
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['content that is not strict base64', { content: 'UEsDBA' }, 'content'],
    ['no workarea', { workarea: undefined }, 'workarea'],
    ['trust_class', { trust_class: 'T-1' }, 'trust_class'],
    ['an unlisted field, by name', { kind: 'skill' }, 'kind'],
    ['a null field, by name', { producer: null }, 'producer'],
  ];
  for (const [name, extra, field] of refusals) {
    it(`refuses ${name}`, async () => {
      const answer = await bundle(fixture('skill-valid.zip'), extra);
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(answer.error?.data?.field).toBe(field);
    });
  }

  it('is refused to a reader, naming both roles', async () => {
    const reader = await gate.key('reader');
    const answer = await bundle(fixture('skill-valid.zip'), {}, reader.key);
    expect(answer.error).toMatchObject({ code: -32602, data: { required: 'agent', role: 'reader' } });
  });
});
