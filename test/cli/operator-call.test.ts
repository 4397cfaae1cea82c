import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const dir = mkdtempSync(join(tmpdir(), 'gate-operator-'));
const keyFile = join(dir, 'operator.pem');
let operatorKey: string;

const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

beforeAll(() => {
  const made = cli('operator', 'keygen', '--out', keyFile);
  expect(made.status).toBe(0);
  operatorKey = made.stdout.trim();
});
const { gate } = useGate({ env: () => ({ GATE_AUTH_OPERATOR_KEYS: operatorKey }) });

describe('gate operator keygen and gate operator call', () => {
  it('keygen writes the private key 0600, prints the public key, and never overwrites', () => {
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const again = cli('operator', 'keygen', '--out', keyFile);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/exists/);
  });

  it('call gets a challenge, signs it and sends the verb with its proof', () => {
    const params = JSON.stringify({ action: 'issue', grants: [{ principal: 'uid:4242', space: 'main', capabilities: ['submit'] }] });
    const plain = cli('call', 'gv.grant', params, '--home', gate.home);
    expect(plain.status).toBe(1);
    expect(plain.stdout).toMatch(/proof_required/);
    const proven = cli('operator', 'call', 'gv.grant', params, '--key', keyFile, '--home', gate.home);
    expect(proven.stderr).toBe('');
    expect(proven.status).toBe(0);
    expect(JSON.parse(proven.stdout).result.changed).toBe(true);
  });

  it('has --help', () => {
    expect(cli('operator', 'call', '--help').stdout).toMatch(/gv\.challenge/);
    expect(cli('operator', 'keygen', '--help').stdout).toMatch(/operator_keys/);
  });
});
