import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateRunner, stopGateRunner } from '../harness/gate-runner-process.js';
import { settingsDefaults } from '../../src/domain/runner-settings.js';

/**
 * A runner restarted on its key meets the gate's one-hello-per-interval rule at once: the
 * instance before it helloed a moment ago, so its first hello is refused too_soon. It must
 * hello again after the retry the refusal names, not wait out a gap measured from no hello.
 * The gate here is a loopback server this test controls: the first hello refused, the rest answered.
 */
const hellos: Array<{ at: number; refused: boolean }> = [];
let server: Server;
const runnerLog: string[] = [];

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

async function fakeGate(): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id: number; method: string };
      const answer = (payload: Record<string, unknown>) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...payload }));
      };
      if (message.method !== 'gv.runner_hello') return answer({ error: { code: -32601, message: `not in this test: ${message.method}` } });
      const refused = hellos.length === 0;
      hellos.push({ at: Date.now(), refused });
      if (refused) return answer({ error: { code: -32602, message: 'at most one hello per 1 s on a runner key', data: { reason: 'too_soon', retry_after_ms: 300 } } });
      // Settings that hello again within a second, served once (the runner echoes version 1 after).
      const settings = { ...settingsDefaults('restarted'), poll_seconds: 0.3, idle_poll_seconds: 0.3 };
      const known = (JSON.parse(body) as { params?: { settings_version?: number } }).params?.settings_version === 1;
      return answer({ result: { now: Date.now(), settings_version: 1, ...(known ? {} : { settings }), label: 'restarted', token: 'none', token_version: 0, assignments: [] } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a restarted runner whose first hello is refused too_soon', () => {
  it('hellos again after the retry it was told, and keeps helloing', async () => {
    const url = await fakeGate();
    const runner = startGateRunner({ url, key: 'gk_restarted_runner_key', stateDir: mkdtempSync(join(tmpdir(), 'gate-runner-state-')), log: runnerLog });
    try {
      const deadline = Date.now() + 20_000;
      while (hellos.filter((h) => !h.refused).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(hellos[0]?.refused, runnerLog.join('\n')).toBe(true);
      const answered = hellos.filter((h) => !h.refused);
      expect(answered.length, runnerLog.join('\n')).toBeGreaterThanOrEqual(3);
      // The second hello follows the refusal by about its retry, not by a gap learned from nothing.
      expect(answered[0]!.at - hellos[0]!.at).toBeLessThan(5_000);
    } finally {
      await stopGateRunner(runner);
    }
  }, 30_000);
});
