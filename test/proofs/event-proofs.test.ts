import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { uniqueText } from '../harness/gate-process.js';
import { tool } from '../harness/mcp-calls.js';
import { verifyCheckpoint, verifyCheckpointAnswer, verifyEventProofs } from '@gate/client';
import { clone, refusal } from '../harness/proof-refusal.js';
import { useGate } from '../harness/use-gate.js';

const { gate, ingestAnswer } = useGate({ kind: 'in-process' });

let reader: string;
let agent: string;
let otherAgent: string;
let promoted: string;
let held: string;

beforeAll(async () => {
  reader = (await gate.key('reader')).key;
  agent = (await gate.key('agent')).key;
  otherAgent = (await gate.key('agent')).key;
  const reviewer = (await gate.key('reviewer')).key;
  const ingest = (key: string) => ingestAnswer(key, { content: uniqueText('proof'), workarea: 'tests/proofs', source_uri: 'test://proofs' });
  promoted = (await ingest(agent)).result.artifact_id;
  held = (await ingest(otherAgent)).result.artifact_id;
  await gate.readBody(reviewer, promoted);
  expect((await gate.rpc(reviewer, 'gv.promote', { artifact_id: promoted })).result?.state).toBe('ACTIVE');
});

describe('inclusion proofs served with gv.why and gv.audit, checked with the deployment id alone', () => {
  it("a reader's gv.why over /rpc: the checkpoint's signature and every event's inclusion verify", async () => {
    const why = (await gate.rpc(reader, 'gv.why', { artifact_id: promoted })).result;
    expect(why.events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['ingest', 'scan', 'promote']));
    const checked = await verifyEventProofs(gate.deploymentId, why);
    expect(checked.events).toBe(why.events.length);
    expect(checked.checkpoint.size).toBeGreaterThanOrEqual(why.events.at(-1).seq);
    expect(why.checkpoint.split('\n')[0]).toBe(`gate.journal/${gate.deploymentId}`);
  });

  it('gv.audit: every decision proven in its checkpoint', async () => {
    const audit = (await gate.rpc(reader, 'gv.audit', { artifact_id: promoted })).result;
    expect(audit.decisions.length).toBeGreaterThanOrEqual(2);
    expect((await verifyEventProofs(gate.deploymentId, audit)).events).toBe(audit.decisions.length);
  });

  it('gate.why on /mcp serves the checkpoint and the proofs in its structured output, and they verify', async () => {
    const why = await tool(gate, 'why', { artifact_id: promoted }, reader);
    expect(why.events[0].inclusion.hashes.length).toBeGreaterThan(0);
    await expect(verifyEventProofs(gate.deploymentId, why)).resolves.toMatchObject({ events: why.events.length });
  });

  it('a tampered path, event id, position or checkpoint is refused, and so is another deployment', async () => {
    const why = (await gate.rpc(reader, 'gv.why', { artifact_id: promoted })).result;
    const path = clone(why);
    const hash = Buffer.from(path.events[0].inclusion.hashes[0], 'base64');
    hash[0] ^= 1;
    path.events[0].inclusion.hashes[0] = hash.toString('base64');
    expect(await refusal(verifyEventProofs(gate.deploymentId, path))).toBe('inclusion');

    const swapped = clone(why);
    swapped.events[0].event_id = why.events[1].event_id;
    expect(await refusal(verifyEventProofs(gate.deploymentId, swapped))).toBe('inclusion');

    const moved = clone(why);
    moved.events[0].inclusion.leaf_index += 1;
    moved.events[0].seq += 1;
    expect(await refusal(verifyEventProofs(gate.deploymentId, moved))).toBe('inclusion');

    const shortened = clone(why);
    shortened.events[0].inclusion.hashes.pop();
    expect(await refusal(verifyEventProofs(gate.deploymentId, shortened))).toBe('inclusion');

    // A checkpoint claiming another root (or size) no longer matches its signature.
    const lines = why.checkpoint.split('\n');
    const rootBytes = Buffer.from(lines[2], 'base64');
    rootBytes[31] ^= 1;
    const forgedRoot = { ...why, checkpoint: [lines[0], lines[1], rootBytes.toString('base64'), ...lines.slice(3)].join('\n') };
    expect(await refusal(verifyEventProofs(gate.deploymentId, forgedRoot))).toBe('signature');
    const forgedSize = { ...why, checkpoint: [lines[0], String(Number(lines[1]) + 1), ...lines.slice(2)].join('\n') };
    expect(await refusal(verifyEventProofs(gate.deploymentId, forgedSize))).toBe('signature');

    const otherId = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
    expect(await refusal(verifyEventProofs(otherId, why))).toBe('wrong_log');
    // The same note relabelled for the other key: the signature is still this deployment's.
    const relabelled = why.checkpoint.replaceAll(`gate.journal/${gate.deploymentId}`, `gate.journal/${otherId}`);
    expect(await refusal(verifyCheckpoint(otherId, relabelled))).toBe('signature');
    expect(await refusal(verifyCheckpoint(gate.deploymentId, 'not a note'))).toBe('malformed');
  });
});

describe('gv.checkpoint', () => {
  it('an old checkpoint kept by a reader is proven a prefix of a later one', async () => {
    const old = (await gate.rpc(reader, 'gv.checkpoint')).result;
    for (let i = 0; i < 5; i++) {
      await gate.rpc(agent, 'gv.ingest', { content: uniqueText('later'), workarea: 'tests/proofs', kind: 'memory', source_uri: 'test://later' });
    }
    const now = (await gate.rpc(reader, 'gv.checkpoint', { from_size: old.size })).result;
    expect(now.size).toBeGreaterThan(old.size);
    expect(now.consistency.from_size).toBe(old.size);
    await expect(verifyCheckpointAnswer(gate.deploymentId, now, old.checkpoint)).resolves.toMatchObject({ consistency: true });

    const tampered = clone(now);
    const h = Buffer.from(tampered.consistency.hashes[0], 'base64');
    h[5] ^= 1;
    tampered.consistency.hashes[0] = h.toString('base64');
    expect(await refusal(verifyCheckpointAnswer(gate.deploymentId, tampered, old.checkpoint))).toBe('consistency');
    // A proof from another size than the kept checkpoint's is no proof about it.
    const fromOther = (await gate.rpc(reader, 'gv.checkpoint', { from_size: old.size - 1 })).result;
    expect(await refusal(verifyCheckpointAnswer(gate.deploymentId, fromOther, old.checkpoint))).toBe('malformed');
    // An older size signs the same tree it did then: the same note, byte for byte.
    expect((await gate.rpc(reader, 'gv.checkpoint', { size: old.size })).result.checkpoint).toBe(old.checkpoint);
  });

  it("an event's inclusion proof for whoever may read the event; others' held rows' events are unknown", async () => {
    const why = (await gate.rpc(agent, 'gv.why', { artifact_id: promoted })).result;
    const event = why.events[0];
    const answer = (await gate.rpc(reader, 'gv.checkpoint', { event_id: event.event_id })).result;
    expect(answer.inclusion).toMatchObject({ event_id: event.event_id, seq: event.seq, leaf_index: event.seq - 1 });
    await expect(verifyCheckpointAnswer(gate.deploymentId, answer)).resolves.toMatchObject({ inclusion: true });

    const heldEvent = (await gate.rpc(otherAgent, 'gv.why', { artifact_id: held })).result.events[0];
    const hidden = await gate.rpc(reader, 'gv.checkpoint', { event_id: heldEvent.event_id });
    const missing = await gate.rpc(reader, 'gv.checkpoint', { event_id: '0'.repeat(64) });
    expect(hidden.error).toMatchObject({ code: -32602, message: `unknown event: ${heldEvent.event_id.slice(0, 16)}` });
    expect(missing.error).toMatchObject({ code: -32602, message: `unknown event: ${'0'.repeat(16)}` });
    // Its writer may prove it.
    expect((await gate.rpc(otherAgent, 'gv.checkpoint', { event_id: heldEvent.event_id })).result.inclusion.seq).toBe(heldEvent.seq);
  });

  it('refuses a size past the journal, a from_size past the size, and an event past the size', async () => {
    const { size } = (await gate.rpc(reader, 'gv.checkpoint')).result;
    expect((await gate.rpc(reader, 'gv.checkpoint', { size: size + 1000 })).error).toMatchObject({ code: -32602, data: { field: 'size' } });
    expect((await gate.rpc(reader, 'gv.checkpoint', { size: 5, from_size: 6 })).error).toMatchObject({ code: -32602, data: { field: 'from_size' } });
    const late = (await gate.rpc(agent, 'gv.why', { artifact_id: promoted })).result.events.at(-1);
    expect((await gate.rpc(reader, 'gv.checkpoint', { size: late.seq - 1, event_id: late.event_id })).error).toMatchObject({ code: -32602, data: { field: 'event_id' } });
    expect((await gate.rpc(reader, 'gv.checkpoint', { size: 0 })).error?.code).toBe(-32602);
  });
});
