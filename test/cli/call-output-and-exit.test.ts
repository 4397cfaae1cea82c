import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, tempHome } from '../harness/gate-process.js';
import { gateCommand } from '../harness/gate-command.js';
import { useGate } from '../harness/use-gate.js';

/**
 * `gate call` as a script uses it: the whole answer through a pipe however long, a deadline
 * of the caller's choosing, and exit statuses that tell a bad argument (3) from no gate (2)
 * from a gate that took the message and did not answer in time (4).
 */
const { gate } = useGate({ kind: 'in-process' });

/** The command run to its end beside the gate, which answers it meanwhile (a run that held this process would hold the gate too). */
const gateCli = (args: string[]) => gateCommand(args);

describe('gate call', () => {
  it('writes an answer far past a pipe buffer (64 KiB) whole before it exits', async () => {
    const content = `A long note for the pipe test. ${'The quick brown fox jumps over the lazy dog. '.repeat(4_000)}`;
    const ingested = await gate.socket('gv.ingest', { content, workarea: 'tests/cli', kind: 'memory', source_uri: 'https://example.org/long' });
    expect(ingested.error, JSON.stringify(ingested.error)).toBeUndefined();
    const out = await gateCli(['call', 'gv.node', JSON.stringify({ artifact_id: ingested.result.artifact_id, body: true }), '--home', gate.home]);
    expect(out.code, out.err).toBe(0);
    expect(out.out.length).toBeGreaterThan(150_000);
    expect(JSON.parse(out.out).result.body).toBe(content);
  });

  it('exits 3 on params that are not JSON, naming what is wrong', async () => {
    const out = await gateCli(['call', 'gv.ping', '{not json', '--home', gate.home]);
    expect(out.code).toBe(3);
    expect(out.err).toMatch(/params must be JSON.*position/);
    expect(out.out).toBe('');
  });

  it('exits 2 when no gate answers on the home', async () => {
    const out = await gateCli(['call', 'gv.ping', '--home', tempHome()]);
    expect(out.code).toBe(2);
    expect(out.err).toContain('no gate answers');
  });

  it('--timeout bounds the wait for a gate that took the message and never answers (exit 4)', async () => {
    const home = tempHome();
    const held: Socket[] = [];
    const silent: Server = createServer((s) => held.push(s));
    mkdirSync(home, { recursive: true });
    await new Promise<void>((resolve, reject) => {
      silent.once('error', reject);
      silent.listen(join(home, 'gate.sock'), resolve);
    });
    try {
      const started = Date.now();
      const child = spawn(process.execPath, [CLI, 'call', 'gv.ping', '--home', home, '--timeout', '300']);
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(4);
      // The timeout ended it (exit 4, its message), not early; a wait with no bound fails as the test's timeout.
      expect(stderr).toContain('no answer within 300 ms');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      for (const s of held) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('--timeout 0 waits as long as the gate takes; a bad --timeout is refused', async () => {
    expect((await gateCli(['call', 'gv.ping', '--home', gate.home, '--timeout', '0'])).code).toBe(0);
    const bad = await gateCli(['call', 'gv.ping', '--home', gate.home, '--timeout', 'soon']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--timeout takes whole milliseconds');
  });
});
