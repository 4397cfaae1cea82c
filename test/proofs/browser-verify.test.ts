import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { join } from 'node:path';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';
import { ForeignSite, launchBrowser, type TestBrowser } from '../harness/browser.js';

const { gate } = useGate({ kind: 'in-process' });
let site: ForeignSite;
let browser: TestBrowser;
let bundle: string;

beforeAll(async () => {
  // The proof checks as a browser bundle: no Node built-in may be reached from them.
  const built = await build({
    entryPoints: [join(ROOT, 'packages', 'client', 'src', 'proofs.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'GateProofs',
    write: false,
    logLevel: 'silent',
  });
  bundle = built.outputFiles[0]!.text;
  site = await ForeignSite.start();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('the client library checks proofs in a browser', () => {
  it('bundles for the browser and verifies a gv.why answer in Chromium with the deployment id alone; a tampered one is refused', async () => {
    const agent = (await gate.key('agent')).key;
    const id = (await gate.rpc(agent, 'gv.ingest', { content: uniqueText('browser'), workarea: 'tests/browser', kind: 'memory', source_uri: 'test://b' })).result.artifact_id;
    const why = (await gate.rpc(agent, 'gv.why', { artifact_id: id })).result;
    const page = await browser.newPage();
    await page.goto(site.page('/proofs', '<!doctype html><title>proofs</title>'));
    await page.addScriptTag({ content: bundle });
    const check = (answer: unknown) =>
      page.evaluate(
        async ([deploymentId, a]) => {
          const proofs = (globalThis as any).GateProofs;
          try {
            const r = await proofs.verifyEventProofs(deploymentId, a);
            return { ok: true, events: r.events, size: r.checkpoint.size };
          } catch (e) {
            return { ok: false, code: (e as { code?: string }).code };
          }
        },
        [gate.deploymentId, answer] as const,
      );
    expect(await check(why)).toEqual({ ok: true, events: why.events.length, size: Number(why.checkpoint.split('\n')[1]) });
    const tampered = JSON.parse(JSON.stringify(why));
    tampered.events[0].event_id = 'f'.repeat(64);
    expect(await check(tampered)).toEqual({ ok: false, code: 'inclusion' });
  });

  it('verifies a published collection in Chromium (canonical JSON, signatures, the rows root)', async () => {
    expect((await gate.socket('gv.publish', { space: 'main' })).error).toBeUndefined();
    const answer = (await gate.socket('gv.collection', { space: 'main' })).result;
    const page = await browser.newPage();
    await page.goto(site.page('/collection', '<!doctype html><title>collection</title>'));
    await page.addScriptTag({ content: bundle });
    const check = (a: unknown) =>
      page.evaluate(
        async ([deploymentId, a]) => {
          try {
            const r = await (globalThis as any).GateProofs.verifyCollection(deploymentId, a);
            return { ok: true, rows: r.rows_checked, version: r.header.version };
          } catch (e) {
            return { ok: false, code: (e as { code?: string }).code };
          }
        },
        [gate.deploymentId, a] as const,
      );
    expect(await check(answer)).toEqual({ ok: true, rows: answer.collection.rows, version: 1 });
    expect(await check({ ...answer, collection: { ...answer.collection, name: 'other' } })).toEqual({ ok: false, code: 'collection' });
  });
});
