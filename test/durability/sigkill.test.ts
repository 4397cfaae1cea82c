import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { CLI, GateProcess, uniqueText } from '../harness/gate-process.js';

let gate: GateProcess | undefined;
afterAll(async () => {
  await gate?.stop();
});

const ROUNDS = 5;
const CLIENTS = 16;
/** Receipts a round waits for before its random kill moment, so a busy machine still kills under load. */
const RECEIPTS_BEFORE_KILL = 12;

/** Ingests until the server stops answering; returns the receipts the clients got. */
async function loadUntilKilled(g: GateProcess, key: string, killAfterMs: number): Promise<string[]> {
  const receipts: string[] = [];
  let alive = true;
  const client = async (n: number) => {
    while (alive) {
      try {
        const answer = await g.rpc(key, 'gv.ingest', {
          content: uniqueText(`durability client ${n}`),
          workarea: `tests/durability/c${n}`,
          kind: 'memory',
          source_uri: 'test://durability',
        });
        if (answer.result?.artifact_id) receipts.push(answer.result.artifact_id);
      } catch {
        return; // the connection died with the server: whatever was not answered was never promised
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
  // The kill lands under load, whatever the machine's speed: first some receipts, then a random moment.
  const loaded = Date.now() + 30_000;
  while (receipts.length < RECEIPTS_BEFORE_KILL && Date.now() < loaded) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, killAfterMs));
  await g.kill();
  alive = false;
  await Promise.all(clients);
  return receipts;
}

describe('durability: an ingest answer is sent only after its events are committed', () => {
  it(`survives ${ROUNDS} SIGKILLs at random moments under concurrent ingest: every receipt present, chain verifies, rebuild equals live`, async () => {
    gate = await GateProcess.start();
    const agent = await gate.key('agent');
    const all: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const killAfter = Math.floor(Math.random() * 700);
      const receipts = await loadUntilKilled(gate, agent.key, killAfter);
      all.push(...receipts);
      await gate.restart();
      for (const id of receipts) {
        const status = await gate.socket('gv.status', { artifact_id: id });
        expect(status.error, `receipt ${id} of round ${round} is missing after SIGKILL`).toBeUndefined();
        expect(status.result.state).toBe('L1_SCANNED');
      }
    }
    expect(all.length).toBeGreaterThan(ROUNDS * 10);
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.error).toBeUndefined();
    expect(rebuilt.result.equal).toBe(true);
    expect(rebuilt.result.live_digest).toBe(rebuilt.result.rebuilt_digest);
    await gate.stop();
    const verify = spawnSync(process.execPath, [CLI, 'verify', '--home', gate.home, '--json'], { encoding: 'utf8' });
    expect(verify.status).toBe(0);
    const report = JSON.parse(verify.stdout);
    expect(report.ok).toBe(true);
    expect(report.types.ingest).toBeGreaterThanOrEqual(all.length);
  }, 180_000);
});
