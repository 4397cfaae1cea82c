import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, type RpcAnswer } from '../harness/gate-process.js';
import { opaqueBytes, sha256Of } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'unit' });

const CHUNK = 100_000;

describe('gv.upload: a completion that failed is owed, and the next status query makes it once', () => {
  it('a disk fault at the last chunk keeps the bytes; the status queries after it is mended complete the upload once, and a retried last chunk is answered the same', async () => {
    const agent = await gate.key('agent');
    const bytes = opaqueBytes(300_000);
    const sha256 = sha256Of(bytes);
    const size_bytes = bytes.length;
    // A file where the object's folder must go: the completion fails on the disk, after the bytes were verified.
    const folder = join(gate.home, 'attachments', 'objects', sha256.slice(7, 9));
    mkdirSync(join(folder, '..'), { recursive: true });
    writeFileSync(folder, 'in the way');

    let last: RpcAnswer | undefined;
    for (let offset = 0; offset < size_bytes; offset += CHUNK) {
      last = await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes, offset, content: bytes.subarray(offset, offset + CHUNK).toString('base64') });
    }
    expect(last!.error?.code).toBe(-32603);
    // Still owed, not stuck: each status query tries the completion again.
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes })).error?.code).toBe(-32603);

    rmSync(folder);
    const answers = await Promise.all([1, 2, 3].map(() => gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes })));
    const completed = { sha256, size_bytes, received: size_bytes, complete: true, media_type: 'application/octet-stream', prepared: null, stripped: [] };
    for (const a of answers) expect(a.result).toEqual(completed);
    const retried = await gate.rpc(agent.key, 'gv.upload', { sha256, size_bytes, offset: 200_000, content: bytes.subarray(200_000).toString('base64') });
    expect(retried.result).toEqual(completed);
    expect(existsSync(join(folder, sha256.slice(7)))).toBe(true);
    const ingested = await gate.rpc(agent.key, 'gv.ingest', {
      content: 'an upload whose completion waited for the disk',
      workarea: 'tests/upload-owed',
      kind: 'memory',
      source_uri: 'test://upload-owed',
      attachments: [{ sha256 }],
    });
    expect(ingested.error, JSON.stringify(ingested.error)).toBeUndefined();
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);

    await gate.stop();
    const verify = spawnSync(process.execPath, [CLI, 'verify', '--home', gate.home, '--json'], { encoding: 'utf8' });
    expect(JSON.parse(verify.stdout).types['upload-completed']).toBe(1);
  }, 60_000);
});
