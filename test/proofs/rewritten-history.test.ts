import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { ProofError, verifyCheckpointAnswer } from '@gate/client';

const started: UnitGate[] = [];
afterAll(async () => {
  for (const g of started) await g.stop();
});

function copyHome(from: string, name: string): string {
  const home = join(dirname(from), name);
  mkdirSync(home, { recursive: true });
  for (const f of ['gate.db', 'deployment.key', 'gate.toml']) copyFileSync(join(from, f), join(home, f));
  return home;
}

async function writeSome(gate: UnitGate, n: number, label: string): Promise<void> {
  const agent = (await gate.key('agent')).key;
  for (let i = 0; i < n; i++) await gate.rpc(agent, 'gv.ingest', { content: uniqueText(label), workarea: 'tests/fork', kind: 'memory', source_uri: `test://${label}` });
}

describe('a reader who kept a checkpoint catches a rewritten history', () => {
  it('two journals from one home and one key diverge: the one that rewrote cannot prove consistency with the kept checkpoint', async () => {
    const base = await UnitGate.open();
    started.push(base);
    await writeSome(base, 2, 'base');
    await base.stop();
    const honest = await UnitGate.open({ home: copyHome(base.home, 'honest'), takeover: true });
    started.push(honest);
    await writeSome(honest, 3, 'honest');
    const kept = (await honest.socket('gv.checkpoint')).result;

    // The same deployment key signs another history past the shared prefix.
    const rewritten = await UnitGate.open({ home: copyHome(base.home, 'rewritten'), takeover: true });
    started.push(rewritten);
    expect(rewritten.deploymentId).toBe(honest.deploymentId);
    await writeSome(rewritten, 6, 'rewritten');
    const later = (await rewritten.socket('gv.checkpoint', { from_size: kept.size })).result;
    expect(later.size).toBeGreaterThan(kept.size);
    // Its checkpoint is genuinely signed by the deployment, and alone it verifies ...
    await expect(verifyCheckpointAnswer(rewritten.deploymentId, later)).resolves.toMatchObject({ consistency: false });
    // ... but not as an extension of what the reader kept.
    const refused = await verifyCheckpointAnswer(rewritten.deploymentId, later, kept.checkpoint).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProofError);
    expect((refused as ProofError).code).toBe('consistency');

    // The honest journal proves it, and gate proof verify says the same offline from files.
    const honestLater = (await (async () => {
      await writeSome(honest, 2, 'honest-later');
      return (await honest.socket('gv.checkpoint', { from_size: kept.size })).result;
    })());
    const dir = dirname(honest.home);
    writeFileSync(join(dir, 'kept.txt'), kept.checkpoint);
    writeFileSync(join(dir, 'honest.json'), JSON.stringify({ jsonrpc: '2.0', id: 1, result: honestLater }));
    writeFileSync(join(dir, 'rewritten.json'), JSON.stringify(later));
    const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, 'proof', 'verify', ...args], { encoding: 'utf8' });
    const ok = cli(join(dir, 'honest.json'), '--deployment-id', honest.deploymentId, '--since', join(dir, 'kept.txt'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`consistent with the checkpoint kept from`);
    const bad = cli(join(dir, 'rewritten.json'), '--deployment-id', honest.deploymentId, '--since', join(dir, 'kept.txt'));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('REFUSED (consistency)');
  });
});
