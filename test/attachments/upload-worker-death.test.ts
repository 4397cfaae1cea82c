import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GateProcess, ROOT } from '../harness/gate-process.js';
import { sha256Of, upload } from '../harness/attachments.js';
import { GateFleet, loggedLine, waitForDeath } from '../harness/crash.js';

const fleet = new GateFleet();
afterEach(() => fleet.stopAll());

const png = readFileSync(join(ROOT, 'fixtures/images/gps.png'));
const hash = sha256Of(png);
const status = (gate: GateProcess, key: string) => gate.rpc(key, 'gv.upload', { sha256: hash, size_bytes: png.length });

describe('gv.upload: an image worker that dies on the bytes leaves no upload stuck', () => {
  it('the last chunk is refused image_worker_exit, the gate lives on, and the upload starts again from 0', async () => {
    const gate = await fleet.start({ failpoints: 'image-worker-dies' });
    const agent = await gate.key('agent');
    const answer = await upload(gate, agent.key, png, 1000);
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'content', reason: 'image_worker_exit' } });
    expect((await status(gate, agent.key)).result).toEqual({ sha256: hash, size_bytes: png.length, received: 0, complete: false, reason: 'image_worker_exit' });
    // Not stuck: a chunk at 0 is taken as the start of a new upload.
    const again = await gate.rpc(agent.key, 'gv.upload', { sha256: hash, size_bytes: png.length, offset: 0, content: png.subarray(0, 1000).toString('base64') });
    expect(again.result).toEqual({ sha256: hash, size_bytes: png.length, received: 1000, complete: false });
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  }, 60_000);

  it('a completion owed at start whose worker dies is discarded, not left owed; with a sound worker the upload then completes and ingests', async () => {
    const armed = await fleet.start({ failpoints: 'upload-before-completion' });
    const agent = await armed.key('agent');
    const pid = armed.pid;
    await upload(armed, agent.key, png, 1000).catch(() => undefined);
    await waitForDeath(pid);

    const dying = await fleet.start({ home: armed.home, failpoints: 'image-worker-dies' });
    expect((await status(dying, agent.key)).result).toMatchObject({ received: 0, complete: false, reason: 'image_worker_exit' });
    expect(await loggedLine(dying, /uploads a crash left unfinished/)).toMatch(/0 completed, 1 discarded, 0 deferred/);
    await dying.stop();

    const gate = await fleet.start({ home: armed.home });
    expect((await status(gate, agent.key)).result).toMatchObject({ received: 0, complete: false, reason: 'image_worker_exit' });
    const done = await upload(gate, agent.key, png, 1000);
    expect(done.result).toMatchObject({ received: png.length, complete: true, media_type: 'image/png', prepared: true });
    const ingested = await gate.rpc(agent.key, 'gv.ingest', {
      content: 'a map photo whose first preparation killed the worker',
      workarea: 'tests/upload-worker-death',
      kind: 'memory',
      source_uri: 'test://upload-worker-death',
      attachments: [{ sha256: hash }],
    });
    expect(ingested.error, JSON.stringify(ingested.error)).toBeUndefined();
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  }, 90_000);
});
