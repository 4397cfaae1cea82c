import { describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CLI, ROOT } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';
import { workerExecArgv } from '../../src/pool-exec-argv.js';

// How the gate is launched: its bin's first line passes node's flags (the young generation's
// size, issue 16), `npm start` runs that bin, and the gate's threads start under them.

const LAUNCH_LINE = /^#!\/usr\/bin\/env -S node (.+)$/;

describe('the launch line', () => {
  it('the built bin is executable and passes the young generation size to node', () => {
    const first = readFileSync(CLI, 'utf8').split('\n', 1)[0]!;
    const m = LAUNCH_LINE.exec(first);
    expect(m, first).not.toBeNull();
    expect(m![1]!.split(' ')).toContain('--max-semi-space-size=32');
    expect(statSync(CLI).mode & 0o111).toBe(0o111);
  });

  it('npm start is the bin: `gate serve` with the same line', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { gate: string }; scripts: { start: string } };
    expect(pkg.scripts.start).toBe(`${pkg.bin.gate} serve`);
    expect(join(ROOT, pkg.bin.gate)).toBe(CLI);
  });
});

describe('a gate started as its bin', () => {
  const { gate } = useGate({ asBin: true });

  it('runs node with the line’s flags, and its pools and signing thread work under them', async () => {
    const cmdline = readFileSync(`/proc/${gate.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('--max-semi-space-size=32');
    expect(cmdline).toContain(CLI);
    // An ingest is scanned in the scan pool and its two events signed on the signing thread;
    // a Worker given the flag in an explicit execArgv would have refused to start.
    const { key } = await gate.key('agent');
    const ingest = await gate.rpc(key, 'gv.ingest', {
      content: 'Launch lines choose node flags before the heap exists.',
      workarea: 'tests/launch',
      kind: 'memory',
      source_uri: 'test://launch',
    });
    expect(ingest.error).toBeUndefined();
    expect(ingest.result.state).toBe('L1_SCANNED');
    const chain = await gate.socket('gv.audit_chain');
    expect(chain.result).toMatchObject({ ok: true, deployment_id: gate.deploymentId });
    expect(chain.result.types).toMatchObject({ ingest: 1, scan: 1 });
    expect(await gate.stop()).toBe(0);
  });
});

describe('worker threads’ flags', () => {
  it('leave out the process-wide V8 sizes a Worker refuses, in either spelling, and keep the rest', () => {
    const argv = ['--max-semi-space-size=32', '--cpu-prof', '--max-old-space-size', '4096', '--import', './x.js', '--stack_size=900', '--min-semi-space-size=2'];
    expect(workerExecArgv(argv)).toEqual(['--cpu-prof', '--import', './x.js']);
  });

  it('what is left starts a Worker that the whole list would not', async () => {
    const argv = ['--max-semi-space-size=32', '--no-experimental-require-module'];
    expect(() => new Worker('', { eval: true, execArgv: argv })).toThrow(/invalid execArgv/);
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(process.execArgv)', { eval: true, execArgv: workerExecArgv(argv) });
    const seen = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    expect(seen).toEqual(['--no-experimental-require-module']);
    await worker.terminate();
  });
});
