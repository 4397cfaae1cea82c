import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { sha256Of, upload, opaqueBytes } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent } } = useGate({ kind: 'unit', keys: { agent: 'agent' } });

const chunk = (bytes: Buffer, offset: number, length: number) => bytes.subarray(offset, offset + length).toString('base64');
const objectPath = (hash: string) => join(gate.home, 'attachments', 'objects', hash.slice(7, 9), hash.slice(7));

describe('gv.upload: chunked, resumable, content-addressed', () => {
  it('asks how far an upload got, takes chunks in order, and completes only when the whole hash matches', async () => {
    const bytes = opaqueBytes(300_000);
    const sha256 = sha256Of(bytes);
    const size_bytes = bytes.length;
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes })).result).toEqual({ sha256, size_bytes, received: 0, complete: false });
    const first = await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes, offset: 0, content: chunk(bytes, 0, 100_000) });
    expect(first.result).toEqual({ sha256, size_bytes, received: 100_000, complete: false });
    // A chunk anywhere but where the upload stands is refused, naming where it stands.
    const skipped = await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes, offset: 200_000, content: chunk(bytes, 200_000, 100_000) });
    expect(skipped.error).toMatchObject({ code: -32602, data: { field: 'offset', received: 100_000 } });
    expect(existsSync(objectPath(sha256))).toBe(false);
    // The upload survives a restart: the gate reports what reached the disk and resumes there.
    await gate.stop();
    await gate.restart();
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes })).result.received).toBe(100_000);
    await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes, offset: 100_000, content: chunk(bytes, 100_000, 100_000) });
    const last = await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes, offset: 200_000, content: chunk(bytes, 200_000, 100_000) });
    expect(last.result).toMatchObject({ sha256, size_bytes, received: size_bytes, complete: true, media_type: 'application/octet-stream', prepared: null });
    expect(existsSync(objectPath(sha256))).toBe(true);
    // Nothing half-written is left beside the object.
    expect(readdirSync(join(objectPath(sha256), '..')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes })).result.complete).toBe(true);
  });

  it('bytes that do not hash to the declared sha256 are discarded and the upload starts again from 0', async () => {
    const bytes = opaqueBytes(5000);
    const claimed = sha256Of(Buffer.from('other bytes'));
    const answer = await gate.rpc(agent.key, 'gv.upload', { sha256: claimed, size_bytes: bytes.length, offset: 0, content: bytes.toString('base64') });
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'sha256', reason: 'hash_mismatch' } });
    expect(existsSync(objectPath(claimed))).toBe(false);
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256: claimed, size_bytes: bytes.length })).result.received).toBe(0);
  });

  it('the media type comes from the bytes, never from a name', async () => {
    const text = Buffer.from('plain words, not a picture\n');
    expect((await upload(gate, agent.key, text)).result.media_type).toBe('text/plain');
    // A PNG with its image data cut short: named image/png by its signature, and not walkable.
    const png = readFileSync(join(ROOT, 'fixtures/images/gps.png'));
    const answer = await upload(gate, agent.key, png.subarray(0, 200));
    expect(answer.result).toMatchObject({ media_type: 'image/png', prepared: false });
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['a size over attachments.max_bytes', { size_bytes: 64 * 1024 * 1024 + 1 }, 'size_bytes'],
    ['a chunk without its offset', { size_bytes: 3, content: 'YWJj' }, 'offset'],
    ['an offset without a chunk', { size_bytes: 3, offset: 0 }, 'offset'],
    ['a chunk that is not strict base64', { size_bytes: 3, offset: 0, content: 'YWJ' }, 'content'],
    ['a chunk running past size_bytes', { size_bytes: 2, offset: 0, content: 'YWJj' }, 'content'],
    ['an unlisted field, by name', { size_bytes: 3, name: 'a.txt' }, 'name'],
    ['a null field, by name', { size_bytes: 3, offset: null }, 'offset'],
  ];
  for (const [name, extra, field] of refusals) {
    it(`refuses ${name}`, async () => {
      const answer = await gate.rpc(agent.key, 'gv.upload', { sha256: sha256Of(Buffer.from('abc')), ...extra });
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(answer.error?.data?.field).toBe(field);
    });
  }

  it('is refused to a reader, naming both roles', async () => {
    const reader = await gate.key('reader');
    const answer = await gate.rpc(reader.key, 'gv.upload', { sha256: sha256Of(Buffer.from('abc')), size_bytes: 3 });
    expect(answer.error).toMatchObject({ code: -32602, data: { required: 'agent', role: 'reader' } });
  });
});
