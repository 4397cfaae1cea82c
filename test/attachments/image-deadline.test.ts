import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { GateProcess } from '../harness/gate-process.js';
import { sha256Of, upload } from '../harness/attachments.js';
import { cleanImages } from '../../fixtures/hostile-exif.js';

// An image that is honest but slow (16,000 x 16,000 pixels of one colour: 0.8 MB, 1-2.4 s
// of sharp on this machine) against a 250 ms deadline: the worker is terminated, the
// upload refused image_deadline, and a clean upload sent just after it is served within
// the deadline plus a fresh worker's start (which the deadline does not count).
const DEADLINE_MS = 250;
const SLACK_MS = 4_000;

let gate: GateProcess;
let agent: { key: string };
let other: { key: string };

beforeAll(async () => {
  gate = await GateProcess.start({ env: { GATE_IMAGE_DEADLINE_MS: String(DEADLINE_MS), GATE_IMAGE_MAX_PIXELS: '300000000' } });
  agent = await gate.key('agent');
  other = await gate.key('agent');
  expect((await upload(gate, other.key, (await cleanImages(200)).jpeg)).error).toBeUndefined();
});
afterAll(async () => {
  await gate?.stop();
});

describe('the image pool\'s deadline (image.deadline_ms)', () => {
  it('a task past it is refused image_deadline, never -32603; the upload behind it is served; the gate keeps serving', async () => {
    const slow = await sharp({ create: { width: 16_000, height: 16_000, channels: 3, background: { r: 10, g: 200, b: 30 } } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const started = performance.now();
    const refused = upload(gate, agent.key, slow).then((a) => ({ a, ms: performance.now() - started }));
    await new Promise((r) => setTimeout(r, 100));
    const cleanStart = performance.now();
    const clean = upload(gate, other.key, (await cleanImages(201)).jpeg).then((a) => ({ a, ms: performance.now() - cleanStart }));
    const [r, c] = await Promise.all([refused, clean]);

    expect(r.a.error, JSON.stringify(r.a)).toMatchObject({ code: -32602, data: { field: 'content', reason: 'image_deadline' } });
    expect(r.a.error!.message).toContain(`deadline of ${DEADLINE_MS} ms`);
    expect(r.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect(c.a.error, JSON.stringify(c.a.error)).toBeUndefined();
    expect(c.a.result).toMatchObject({ complete: true, prepared: true });
    expect(c.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);

    // The refused bytes were dropped, and the pool serves on a fresh worker.
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256: sha256Of(slow), size_bytes: slow.length })).result).toMatchObject({ received: 0 });
    const after = await upload(gate, agent.key, (await cleanImages(202)).png);
    expect(after.result).toMatchObject({ complete: true, media_type: 'image/png', prepared: true });
    expect((await gate.rpc(agent.key, 'gv.ping')).error).toBeUndefined();
  });
});
