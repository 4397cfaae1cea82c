import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

let dir: string;
let whyFile: string;

beforeAll(async () => {
  const agent = (await gate.key('agent')).key;
  const id = (await gate.rpc(agent, 'gv.ingest', { content: uniqueText('cli'), workarea: 'tests/cli', kind: 'memory', source_uri: 'test://cli' })).result.artifact_id;
  dir = dirname(gate.home);
  // What `gate call gv.why ... > why.json` saves: the whole JSON-RPC reply.
  whyFile = join(dir, 'why.json');
  writeFileSync(whyFile, JSON.stringify(await gate.socket('gv.why', { artifact_id: id }), null, 2));
  writeFileSync(join(dir, 'audit.json'), JSON.stringify((await gate.socket('gv.audit', { artifact_id: id })).result));
  writeFileSync(join(dir, 'note.txt'), (await gate.socket('gv.checkpoint')).result.checkpoint);
});

const proof = (...args: string[]) => spawnSync(process.execPath, [CLI, 'proof', 'verify', ...args], { encoding: 'utf8' });

describe('gate proof verify', () => {
  it('verifies a saved gv.why reply, a gv.audit result and a bare checkpoint note with the deployment id alone', () => {
    const why = proof(whyFile, '--deployment-id', gate.deploymentId);
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout).toMatch(/^\d+ events proven in the checkpoint of \d+ events, root \S+/);
    expect(proof(join(dir, 'audit.json'), '--deployment-id', gate.deploymentId).status).toBe(0);
    const note = proof(join(dir, 'note.txt'), '--deployment-id', gate.deploymentId);
    expect(note.stdout).toMatch(/^checkpoint ok: \d+ events/);
  });

  it('refuses a tampered file (exit 1, the code said) and another deployment', () => {
    const reply = JSON.parse(spawnSync('cat', [whyFile], { encoding: 'utf8' }).stdout);
    reply.result.events[0].event_id = reply.result.events[1].event_id;
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(reply));
    const tampered = proof(join(dir, 'tampered.json'), '--deployment-id', gate.deploymentId);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/^REFUSED \(inclusion\)/);
    const other = proof(whyFile, '--deployment-id', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(other.status).toBe(1);
    expect(other.stdout).toMatch(/^REFUSED \(wrong_log\)/);
  });

  it('exits 3 on what it cannot read, and says what it verifies in --help', () => {
    writeFileSync(join(dir, 'garbage.json'), '{"hello": 1}');
    const unknown = proof(join(dir, 'garbage.json'), '--deployment-id', gate.deploymentId);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toContain('not an answer this command verifies');
    expect(proof(join(dir, 'missing.json'), '--deployment-id', gate.deploymentId).status).toBe(3);
    const noId = proof(whyFile);
    expect(noId.status).not.toBe(0);
    expect(noId.stderr).toContain('--deployment-id');
    const help = proof('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('gv.checkpoint');
    expect(help.stdout).toContain('--since');
  });
});
