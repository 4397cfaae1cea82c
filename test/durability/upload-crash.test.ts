import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, GateProcess, type RpcAnswer } from '../harness/gate-process.js';
import { opaqueBytes, sha256Of } from '../harness/attachments.js';
import { GateFleet, loggedLine, waitForDeath } from '../harness/crash.js';

// The size and chunking of the issue's report (13 §3).
const SIZE = 3_158_073;
const CHUNK = 256 * 1024;

const fleet = new GateFleet();
afterEach(() => fleet.stopAll());

const chunkParams = (bytes: Buffer, offset: number) => ({
  sha256: sha256Of(bytes),
  size_bytes: bytes.length,
  offset,
  content: bytes.subarray(offset, offset + CHUNK).toString('base64'),
});
const lastOffset = (bytes: Buffer) => Math.floor((bytes.length - 1) / CHUNK) * CHUNK;

/**
 * A gate armed with `failpoint` takes every chunk of a new upload but the last, each
 * answered, and dies on the last: the client gets no answer to it.
 */
async function cutAtLastChunk(failpoint: string) {
  const armed = await fleet.start({ failpoints: failpoint });
  const agent = await armed.key('agent');
  const bytes = opaqueBytes(SIZE);
  const hash = sha256Of(bytes);
  await allButLast(armed, agent.key, bytes);
  const pid = armed.pid;
  const died = await armed
    .rpc(agent.key, 'gv.upload', chunkParams(bytes, lastOffset(bytes)))
    .then((answer) => ({ answered: answer }))
    .catch((error: unknown) => ({ connectionLost: String(error) }));
  expect(died).toHaveProperty('connectionLost');
  await waitForDeath(pid);
  return { armed, agent, bytes, hash };
}

/** Sends every chunk but the last, each answered. */
async function allButLast(gate: GateProcess, key: string, bytes: Buffer): Promise<void> {
  for (let offset = 0; offset < lastOffset(bytes); offset += CHUNK) {
    const answer = await gate.rpc(key, 'gv.upload', chunkParams(bytes, offset));
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  }
}

/** Where the gate keeps a writer's unfinished upload (AttachmentStore.partPath). */
const partPath = (home: string, identity: string, hash: string) =>
  join(home, 'attachments', 'uploads', `${createHash('sha256').update(`${identity}\n${hash.slice(7)}`).digest('hex')}.part`);
const objectPath = (home: string, hash: string) => join(home, 'attachments', 'objects', hash.slice(7, 9), hash.slice(7));

const ingestNaming = (gate: GateProcess, key: string, hash: string, words: string) =>
  gate.rpc(key, 'gv.ingest', {
    content: words,
    workarea: 'tests/upload-crash',
    kind: 'memory',
    source_uri: 'test://upload-crash',
    attachments: [{ sha256: hash, name: 'report.bin' }],
  });

function journalCounts(home: string): Record<string, number> {
  const verify = spawnSync(process.execPath, [CLI, 'verify', '--home', home, '--json'], { encoding: 'utf8' });
  expect(verify.status, verify.stderr).toBe(0);
  const report = JSON.parse(verify.stdout) as { ok: boolean; types: Record<string, number> };
  expect(report.ok).toBe(true);
  return report.types;
}

async function expectRebuildEqualsLive(gate: GateProcess): Promise<void> {
  const rebuilt = (await gate.socket('gv.rebuild')) as RpcAnswer;
  expect(rebuilt.error).toBeUndefined();
  expect(rebuilt.result.equal).toBe(true);
}

describe('durability: an upload killed during its last chunk is completed, or discarded to start again, never stuck', () => {
  it('killed between the bytes on disk and the completion: the start completes it, an ingest naming it works, a second start writes nothing', async () => {
    const { armed, agent, bytes, hash } = await cutAtLastChunk('upload-before-completion');
    // The state of the report: every byte on disk, no completion journaled.
    expect(statSync(partPath(armed.home, agent.identity, hash)).size).toBe(SIZE);
    expect(existsSync(objectPath(armed.home, hash))).toBe(false);

    const gate = await fleet.start({ home: armed.home });
    // Named by an ingest at once, with no status query first: the start makes the completion, and the ingest waits for it.
    const ingested = await ingestNaming(gate, agent.key, hash, 'a report whose upload was cut by a crash');
    expect(ingested.error, JSON.stringify(ingested.error)).toBeUndefined();
    expect(await loggedLine(gate, /uploads a crash left unfinished/)).toMatch(/1 completed, 0 discarded, 0 deferred/);
    const status = await gate.rpc(agent.key, 'gv.upload', { sha256: hash, size_bytes: SIZE });
    expect(status.result).toMatchObject({ sha256: hash, size_bytes: SIZE, received: SIZE, complete: true, media_type: 'application/octet-stream' });
    // The retried last chunk is answered as the live one would have been.
    const retried = await gate.rpc(agent.key, 'gv.upload', chunkParams(bytes, lastOffset(bytes)));
    expect(retried.result).toEqual(status.result);
    expect(readFileSync(objectPath(gate.home, hash)).equals(bytes)).toBe(true);
    expect(existsSync(partPath(gate.home, agent.identity, hash))).toBe(false);
    await expectRebuildEqualsLive(gate);

    await gate.stop();
    const before = journalCounts(gate.home);
    expect(before['upload-completed']).toBe(1);
    await gate.restart();
    await gate.rpc(agent.key, 'gv.upload', { sha256: hash, size_bytes: SIZE });
    await gate.stop();
    expect(gate.stderr.filter((l) => /uploads a crash left unfinished/.test(l))).toHaveLength(1);
    expect(journalCounts(gate.home)).toEqual(before);
  }, 90_000);

  it('killed after the bytes became the object and before the journal: completed once, from the bytes still on disk', async () => {
    const { armed, agent, bytes, hash } = await cutAtLastChunk('upload-between-object-and-journal');
    expect(existsSync(objectPath(armed.home, hash))).toBe(true);
    expect(statSync(partPath(armed.home, agent.identity, hash)).size).toBe(SIZE);

    // Status queries racing the start's own completion: one completion, every answer complete.
    const gate = await fleet.start({ home: armed.home });
    const answers = await Promise.all([1, 2, 3].map(() => gate.rpc(agent.key, 'gv.upload', { sha256: hash, size_bytes: SIZE })));
    for (const a of answers) expect(a.result).toMatchObject({ received: SIZE, complete: true });
    expect((await ingestNaming(gate, agent.key, hash, 'the object was there before the journal said so')).error).toBeUndefined();
    expect(readFileSync(objectPath(gate.home, hash)).equals(bytes)).toBe(true);
    await expectRebuildEqualsLive(gate);
    await gate.stop();
    expect(journalCounts(gate.home)['upload-completed']).toBe(1);
  }, 90_000);

  it('bytes on disk that no longer hash right are discarded at start; the writer is told why and uploads again from 0', async () => {
    const { armed, agent, bytes, hash } = await cutAtLastChunk('upload-before-completion');
    const part = partPath(armed.home, agent.identity, hash);
    const corrupt = readFileSync(part);
    corrupt[SIZE - 1]! ^= 0xff;
    writeFileSync(part, corrupt);

    const gate = await fleet.start({ home: armed.home });
    expect(await loggedLine(gate, /uploads a crash left unfinished/)).toMatch(/0 completed, 1 discarded/);
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256: hash, size_bytes: SIZE })).result).toEqual({
      sha256: hash,
      size_bytes: SIZE,
      received: 0,
      complete: false,
      reason: 'hash_mismatch',
    });
    expect((await ingestNaming(gate, agent.key, hash, 'not yet')).error).toMatchObject({ code: -32602 });
    expect(existsSync(part)).toBe(false);
    for (let offset = 0; offset < SIZE; offset += CHUNK) {
      const answer = await gate.rpc(agent.key, 'gv.upload', chunkParams(bytes, offset));
      expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
      if (offset === lastOffset(bytes)) expect(answer.result).toMatchObject({ received: SIZE, complete: true });
    }
    expect((await ingestNaming(gate, agent.key, hash, 'uploaded again after a discard')).error).toBeUndefined();
    await expectRebuildEqualsLive(gate);
    await gate.stop();
    const types = journalCounts(gate.home);
    expect([types['upload-started'], types['upload-abandoned'], types['upload-completed']]).toEqual([2, 1, 1]);
  }, 90_000);

  it('SIGKILLed 0-20 ms after the last chunk is sent, three times: after a restart the writer finishes by asking and resuming, and every ingest works', async () => {
    const gate = await fleet.start();
    const agent = await gate.key('agent');
    const hashes: string[] = [];
    for (const delay of [0, 10, 20]) {
      const bytes = opaqueBytes(SIZE);
      const hash = sha256Of(bytes);
      hashes.push(hash);
      await allButLast(gate, agent.key, bytes);
      void gate.rpc(agent.key, 'gv.upload', chunkParams(bytes, lastOffset(bytes))).catch(() => undefined);
      await new Promise((r) => setTimeout(r, delay));
      await gate.kill();
      await gate.restart();
      // What a client does after a lost answer: asks how far the upload got, and sends the rest.
      let status = await gate.rpc(agent.key, 'gv.upload', { sha256: hash, size_bytes: SIZE });
      for (let offset = status.result.received as number; !status.result.complete; offset = status.result.received) {
        status = await gate.rpc(agent.key, 'gv.upload', chunkParams(bytes, offset));
        expect(status.error, JSON.stringify(status.error)).toBeUndefined();
      }
      expect(status.result).toMatchObject({ received: SIZE, complete: true });
      expect((await ingestNaming(gate, agent.key, hash, `killed ${delay} ms after the last chunk`)).error).toBeUndefined();
    }
    await expectRebuildEqualsLive(gate);
    await gate.stop();
    expect(journalCounts(gate.home)['upload-completed']).toBe(hashes.length);
  }, 120_000);
});
