import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALLED_CLAIM_PREFIX } from '../../src/failpoints.js';
import { scanText } from '../../workers/scan/scan-text.js';
import { uniqueText } from '../harness/gate-process.js';
import { layOver } from '../harness/process-overlay.js';
import { useGate } from '../harness/use-gate.js';

// The failpoint makes the worker hold a claim that starts with STALLED_CLAIM_PREFIX for 2 s
// once it has begun it, as hostile bytes can make one scan slow; the stage's worker threads
// read it from this process's environment when they start, which the file leaves as it found.
let lift = () => undefined as void;
beforeAll(() => {
  lift = layOver({ GATE_FAILPOINTS: 'scan-claim-stalls' }).lift;
});
// The compiled stage: its pool finds the scan worker beside it in dist/.
const { ScanStage, LARGE_CLAIM_BYTES } = await import('../../dist/pipeline/scan-stage.js');

const encode = (text: string) => new TextEncoder().encode(text);
const stages: Array<InstanceType<typeof ScanStage>> = [];
const stage = (deadlineMs: number) => {
  const made = new ScanStage({ threads: 1, batchMax: 64, queueMax: 100, deadlineMs });
  stages.push(made);
  return made;
};

afterAll(async () => {
  await Promise.all(stages.map((s) => s.close()));
  lift();
});

describe('the scan deadline (scan.deadline_ms)', () => {
  it('answers a claim still scanning at its deadline scan_timeout, held and wholly masked; the rest of its batch is scanned as usual', async () => {
    const scanner = stage(300);
    const stalled = `${STALLED_CLAIM_PREFIX} a claim whose scan never ends 🙂 ghp_${'Zq8'.repeat(12)}`;
    const texts = ['An ordinary note about the build cache.', stalled, `deploy token: ghp_${'Ab7'.repeat(12)}`];
    // Asked in one turn of the event loop, the three travel to the worker as one batch.
    const results = await Promise.all(texts.map((text) => scanner.scan(encode(text), 'memory')));
    expect(results[1]).toEqual({
      findings: [
        {
          kind: 'scan_timeout',
          severity: 'high',
          detail: expect.stringContaining('deadline of 300 ms'),
          start: 0,
          end: stalled.length,
          excerpt: `…(${[...stalled].length} more)`,
        },
      ],
      flagged: true,
      masked: '█'.repeat(stalled.length),
      scanner: (await scanText('')).scanner,
    });
    // The worker that held it was ended; the claims beside it were scanned again by its successor.
    expect(results[0]).toEqual(await scanText(texts[0]!, { contentType: 'memory' }));
    expect(results[2]).toEqual(await scanText(texts[2]!, { contentType: 'memory' }));
    expect(results[2]!.flagged).toBe(true);
    expect(scanner.reading()).toMatchObject({ queued: 0, running: 0 });
  });

  it('scans a large claim in a lane of its own: small claims asked after it are answered while it is still scanning', async () => {
    const scanner = stage(10_000);
    // Both lanes' threads started first, so that neither waits for a worker to load.
    await Promise.all([scanner.scan(encode('warm the small lane'), 'memory'), scanner.scan(encode('w'.repeat(LARGE_CLAIM_BYTES)), 'memory')]);
    const large = `${STALLED_CLAIM_PREFIX} ${'a long note about the build. '.repeat(LARGE_CLAIM_BYTES / 16)}`;
    let largeDone = false;
    const largeScan = scanner.scan(encode(large), 'memory').then((r) => {
      largeDone = true;
      return r;
    });
    const small = await Promise.all(['The release checklist lives in the wiki.', 'The build cache is cleared every Sunday night.'].map((text) => scanner.scan(encode(text), 'memory')));
    expect(largeDone).toBe(false);
    expect(small.map((r) => r.flagged)).toEqual([false, false]);
    // Held 2 s by the failpoint, within its 10 s deadline: scanned in full.
    expect(await largeScan).toEqual(await scanText(large, { contentType: 'memory' }));
  });

  it('counts both lanes in gv.queues: each has scan.threads threads', () => {
    expect(stage(1000).reading()).toMatchObject({ queued: 0, running: 0, threads: 2 });
  });
});

describe('an ingest whose scan passes scan.deadline_ms', () => {
  const { gate, keys } = useGate({
    kind: 'unit',
    env: { GATE_FAILPOINTS: 'scan-claim-stalls', GATE_SCAN_DEADLINE_MS: '300', GATE_SPACES_MAIN_POLICY: 'auto' },
    keys: { slow: 'agent', other: 'agent', reviewer: 'reviewer' },
  });

  it('is held in L1B_FLAGGED with a scan_timeout finding, its body masked for graders, while another writer ingests as usual', async () => {
    const content = `${STALLED_CLAIM_PREFIX} ${uniqueText('never scanned')}`;
    const held = gate.rpc(keys.slow.key, 'gv.ingest', { content, kind: 'memory', workarea: 'deadline/slow', source_uri: 'test://deadline' });
    const other = await gate.rpc(keys.other.key, 'gv.ingest', { content: uniqueText('an ordinary note'), kind: 'memory', workarea: 'deadline/other', source_uri: 'test://deadline' });
    expect(other.result?.state, JSON.stringify(other.error)).toBe('L1_SCANNED');
    const answer = await held;
    expect(answer.result?.state, JSON.stringify(answer.error)).toBe('L1B_FLAGGED');
    expect(answer.result.findings_count).toBe(1);
    const id = answer.result.artifact_id;
    const item = (await gate.rpc(keys.reviewer.key, 'gv.review', { cap: 500 })).result.items.find((i: { artifact_id: string }) => i.artifact_id === id);
    expect(item.findings.map((f: { kind: string; severity: string }) => [f.kind, f.severity])).toEqual([['scan_timeout', 'high']]);
    const page = (await gate.rpc(keys.reviewer.key, 'gv.node', { artifact_id: id, body: true })).result;
    expect(page.masked_body).toBe('█'.repeat(content.length));
  });
});
