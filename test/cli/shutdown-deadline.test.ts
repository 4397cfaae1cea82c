import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, GateProcess, uniqueText } from '../harness/gate-process.js';
import { FakeModelServer, modelEnv } from '../harness/fake-model-server.js';
import { SHUTDOWN_DEADLINE_MS } from '../../src/cli/serve-command.js';

/**
 * A shutdown that cannot finish (here: a grading run waiting on a model call that will not
 * be answered for minutes) ends the process anyway, SHUTDOWN_DEADLINE_MS after the first
 * signal (src/cli/serve-command.ts): exit code 1, an error line naming the step it was
 * stuck at, the socket and the home lock removed, and the home starts again and verifies.
 */

let server: FakeModelServer | undefined;
let gate: GateProcess | undefined;
afterEach(async () => {
  await gate?.kill();
  await server?.stop();
  gate = undefined;
  server = undefined;
});

describe('the shutdown deadline', () => {
  it('a shutdown stuck past it exits 1 with the step named, frees the home, and the home starts again', { timeout: SHUTDOWN_DEADLINE_MS + 60_000 }, async () => {
    server = await new FakeModelServer().start();
    // Answered long after the deadline; the backend's own timeout (its maximum) is longer still.
    server.slowMs = 5 * 60_000;
    gate = await GateProcess.start({ env: modelEnv(server, { backend: { timeout_ms: 600_000, max_retries: 0 }, env: { GATE_REVIEW_GRADE_EVERY: '200ms' } }) });
    const agent = await gate.key('agent');
    const ingest = await gate.rpc(agent.key, 'gv.ingest', { content: `${uniqueText('stuck')} [[slow]]`, workarea: 'tests/shutdown', kind: 'memory', source_uri: 'test://shutdown' });
    expect(ingest.result?.artifact_id).toBeTruthy();
    // The scheduled run has called the model.
    await vi.waitFor(() => expect(server!.modelCalls().some((c) => c.prompt.includes('[[slow]]'))).toBe(true), { timeout: 30_000, interval: 50 });

    const signalled = Date.now();
    const exited = gate.stop('SIGTERM');
    // A second signal while it waits says what it waits for and does not cut the close short.
    await vi.waitFor(() => expect(gate!.stderr.some((l) => l.includes('shutting down (SIGTERM)'))).toBe(true), { timeout: 30_000, interval: 50 });
    await new Promise((r) => setTimeout(r, 500));
    process.kill(gate.pid, 'SIGINT');
    const code = await exited;
    const took = Date.now() - signalled;
    const log = `the gate's stderr:\n${gate.stderr.join('\n')}`;

    expect(code, log).toBe(1);
    // The deadline ended it (exit 1 and its error line below), not before it; a process it never
    // ended fails as the test's own timeout. Not timed from above (test/README.md, "Waiting").
    expect(took, log).toBeGreaterThanOrEqual(SHUTDOWN_DEADLINE_MS);
    const warned = gate.stderr.filter((l) => l.includes('SIGINT while shutting down'));
    expect(warned, log).toHaveLength(1);
    expect(warned[0]).toContain(`still at the review schedule; the process ends by ${SHUTDOWN_DEADLINE_MS} ms after the first signal`);
    const errors = gate.stderr.filter((l) => l.includes(`shutdown (SIGTERM) did not finish within ${SHUTDOWN_DEADLINE_MS} ms`));
    expect(errors, log).toHaveLength(1);
    expect(errors[0]).toContain('still at the review schedule; the home is released and the process exits with 1');
    expect(gate.stderr.some((l) => l.includes('"msg":"stopped"')), log).toBe(false);
    expect(existsSync(join(gate.home, 'gate.sock'))).toBe(false);
    expect(existsSync(join(gate.home, 'gate.lock'))).toBe(false);

    // The journal written before the cut verifies, and the same home serves again.
    const verify = spawnSync(process.execPath, [CLI, 'verify', '--home', gate.home, '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout).types.ingest).toBe(1);
    await gate.restart();
    const again = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('after the cut'), workarea: 'tests/shutdown', kind: 'memory', source_uri: 'test://shutdown' });
    expect(again.result?.artifact_id).toBeTruthy();
  });
});
