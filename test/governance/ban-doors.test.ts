import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { sha256Of } from '../harness/attachments.js';
import { toolRefusal, tool } from '../harness/mcp-calls.js';
import { PluginProcess } from '../harness/plugin-process.js';
import { GateClient, GateClientError } from '@gate/client';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { banned, reviewer } } = useGate({ kind: 'in-process', keys: { banned: 'agent', reviewer: 'reviewer' } });

const claim = (text: string, extra: Record<string, unknown> = {}) => ({ content: text, workarea: 'tests/ban', kind: 'memory', source_uri: 'test://ban', ...extra });
const skillZip = () => readFileSync(join(ROOT, 'fixtures/bundles/skill-valid.zip')).toString('base64');
const mapManifest = (project: string) => ({ map_version: 'project_map/v1', project, produced_by: { name: 'mapper', version: '1.0.0' }, members: [], nodes: [], edges: [] });

/** One write at each door the ban stands at (docs/protocol.md#gvban; issue 18), with the refused words unique to it. */
function doorWrites(words: string, promotedId: string): Array<[string, () => Promise<{ code?: number; data?: any } | undefined>]> {
  const rpcError = async (method: string, params: unknown) => (await gate.rpc(banned.key, method, params)).error;
  return [
    ['gv.ingest', () => rpcError('gv.ingest', claim(words))],
    ['gv.ingest_bundle', () => rpcError('gv.ingest_bundle', { content: skillZip(), source_uri: 'test://ban-bundle', workarea: 'tests/ban' })],
    ['gv.ingest_map', () => rpcError('gv.ingest_map', { manifest: mapManifest(words), source_uri: 'test://ban-map', workarea: 'tests/ban' })],
    ['gv.upload', () => {
      const bytes = Buffer.from(words);
      return rpcError('gv.upload', { sha256: sha256Of(bytes), size_bytes: bytes.length, offset: 0, content: bytes.toString('base64') });
    }],
    ['gv.comment', () => rpcError('gv.comment', { artifact_id: promotedId, body: words })],
    ['gate.remember', async () => {
      const refusal = await toolRefusal(gate, 'remember', { content: words, content_type: 'memory', source_uri: 'test://ban-tool', workarea: 'tests/ban' }, banned.key);
      return refusal;
    }],
  ];
}

/** The banned writer's rows as the operator sees them, and the text of every served event. */
const operatorView = async () => {
  const inventory = await gate.socket('gv.inventory', { q: banned.identity, limit: 200 });
  return { rows: inventory.result.total as number, text: JSON.stringify(inventory.result) + JSON.stringify((await gate.socket('gv.events', { limit: 1000 })).result) };
};

describe('a writer ban at every write door', () => {
  it('refuses each door -32009 before anything is scanned or stored, counts each refusal, and a lift opens them again', async () => {
    // Admitted before the ban: one promoted row, one held row, and an upload in progress.
    const before = (await gate.rpc(banned.key, 'gv.ingest', claim(uniqueText('admitted before the ban')))).result.artifact_id as string;
    await gate.readBody(reviewer.key, before);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: before })).result.state).toBe('ACTIVE');
    const heldBefore = (await gate.rpc(banned.key, 'gv.ingest', claim(uniqueText('held before the ban')))).result.artifact_id as string;
    const rowsBefore = (await operatorView()).rows;

    const ban = await gate.socket('gv.ban', { kind: 'writer', subject: banned.identity, reason: 'spam from this key' });
    expect(ban.result).toMatchObject({ kind: 'writer', subject: banned.identity, active: true, changed: true });
    expect(ban.result.event_id).toMatch(/^[0-9a-f]{64}$/);

    const words = `bannedwords${Date.now().toString(36)}zz`;
    const doors = doorWrites(words, before);
    for (const [door, write] of doors) {
      const error = await write();
      expect(error, door).toMatchObject({ code: -32009, data: { kind: 'writer', subject: banned.identity } });
    }
    // Nothing of the refused writes was stored: no row, no upload, and the words are in no answer.
    const after = await operatorView();
    expect(after.rows).toBe(rowsBefore);
    expect(after.text).not.toContain(words);
    // The refusals are counted per writer, without their content.
    const bans = await gate.rpc(reviewer.key, 'gv.bans', {});
    expect(bans.result.refused).toContainEqual({ writer_identity: banned.identity, refused: doors.length, refused_last_7_days: doors.length, last_ts: expect.any(Number) });
    expect(JSON.stringify(bans.result)).not.toContain(words);
    // Already admitted content is untouched: served as before, the held row still held.
    expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: before })).result.state).toBe('ACTIVE');
    expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: heldBefore })).result.state).toBe('L1_SCANNED');
    // Reads are no door: the banned writer still reads.
    expect((await gate.rpc(banned.key, 'gv.status', { artifact_id: before })).error).toBeUndefined();

    const lift = await gate.socket('gv.ban', { kind: 'writer', subject: banned.identity, lift: true });
    expect(lift.result).toMatchObject({ kind: 'writer', subject: banned.identity, active: false, changed: true });
    expect((await gate.rpc(banned.key, 'gv.ingest', claim(uniqueText('after the lift')))).result.state).toBe('L1_SCANNED');
    // The refused chunk was never stored: the upload starts from nothing.
    expect((await gate.rpc(banned.key, 'gv.upload', { sha256: sha256Of(Buffer.from(words)), size_bytes: words.length })).result).toMatchObject({ received: 0, complete: false });
    expect((await gate.rpc(banned.key, 'gv.comment', { artifact_id: before, body: 'after the lift' })).error).toBeUndefined();
    expect((await tool(gate, 'remember', { content: uniqueText('tool after the lift'), content_type: 'memory', source_uri: 'test://t', workarea: 'tests/ban' }, banned.key)).state).toBe('L1_SCANNED');
    // A lifted ban is no longer listed; the refusals stay counted.
    const listed = await gate.rpc(reviewer.key, 'gv.bans', {});
    expect(listed.result.bans.filter((b: any) => b.subject === banned.identity)).toEqual([]);
    expect(listed.result.refused.find((r: any) => r.writer_identity === banned.identity).refused).toBe(doors.length);
  });

  it('the client library maps -32009 to kind banned', async () => {
    const writer = await gate.key('agent');
    await gate.socket('gv.ban', { kind: 'writer', subject: writer.identity, reason: 'client mapping' });
    const client = new GateClient({ transport: 'rpc', baseUrl: gate.url, bearer: writer.key, allowPlainHttpLoopback: true, scope: 'knowledge' });
    const error = await client.call('gv.ingest', claim(uniqueText('client')) as never).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(GateClientError);
    expect(error).toMatchObject({ kind: 'banned', code: -32009 });
  });
});

describe("the plugin tier's forwarding", () => {
  it('a claim whose source is banned is refused -32009 when forwarded, and is never recalled', async () => {
    const plugin = await PluginProcess.start({ home: gate.home, negotiate: true });
    try {
      await gate.socket('gv.ban', { kind: 'source', subject: 'test://plugin-banned/', reason: 'a source we do not take' });
      const text = uniqueText('plugin banned zebu');
      const refusal = await plugin.refusal('remember', { content: text, content_type: 'memory', source_uri: 'test://plugin-banned/notes' });
      expect(refusal).toMatchObject({ code: -32009 });
      expect(JSON.stringify((await plugin.tool('recall', { query: 'zebu' })).results)).not.toContain(text);
      // The same plugin's other sources still reach the gate.
      const ok = await plugin.tool('remember', { content: uniqueText('plugin fine'), content_type: 'memory', source_uri: 'test://plugin-fine' });
      expect(ok.artifact_id).toMatch(/^sha256:/);
    } finally {
      await plugin.stop();
    }
  });
});
