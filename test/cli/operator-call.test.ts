import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gateCommand } from '../harness/gate-command.js';
import { useGate } from '../harness/use-gate.js';

const dir = mkdtempSync(join(tmpdir(), 'gate-operator-'));
const keyFile = join(dir, 'operator.pem');
let operatorKey: string;

/** The command run to its end beside the gate, which answers it meanwhile (a run that held this process would hold the gate too). */
const cli = (...args: string[]) => gateCommand(args);

beforeAll(async () => {
  const made = await cli('operator', 'keygen', '--out', keyFile);
  expect(made.code).toBe(0);
  operatorKey = made.out.trim();
});
const { gate } = useGate({ kind: 'in-process', env: () => ({ GATE_AUTH_OPERATOR_KEYS: operatorKey }) });

describe('gate operator keygen and gate operator call', () => {
  it('keygen writes the private key 0600, prints the public key, and never overwrites', async () => {
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const again = await cli('operator', 'keygen', '--out', keyFile);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/exists/);
  });

  it('call gets a challenge, signs it and sends the verb with its proof', async () => {
    const params = JSON.stringify({ action: 'issue', grants: [{ principal: 'uid:4242', space: 'main', capabilities: ['submit'] }] });
    const plain = await cli('call', 'gv.grant', params, '--home', gate.home);
    expect(plain.code).toBe(1);
    expect(plain.out).toMatch(/proof_required/);
    const proven = await cli('operator', 'call', 'gv.grant', params, '--key', keyFile, '--home', gate.home);
    expect(proven.err).toBe('');
    expect(proven.code).toBe(0);
    expect(JSON.parse(proven.out).result.changed).toBe(true);
  });

  it('has --help', async () => {
    expect((await cli('operator', 'call', '--help')).out).toMatch(/gv\.challenge/);
    expect((await cli('operator', 'keygen', '--help')).out).toMatch(/operator_keys/);
  });
});
