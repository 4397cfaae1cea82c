import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempHome, uniqueText } from '../harness/gate-process.js';
import { InProcessServer } from '../harness/in-process-server.js';
import { addPersonWithCli } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { gateCommand } from '../harness/gate-command.js';

const run = gateCommand;

const { gate, keys: { agent }, ingestAnswer } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });
beforeAll(async () => {
  expect((await gate.socket('gv.space_create', { name: 'closed', policy: 'human' })).error).toBeUndefined();
});

const ingest = () => ingestAnswer(agent, { space: 'closed', content: uniqueText('grant'), source_uri: 'test://grant', workarea: 'g' });

describe('gate grant', () => {
  it('issue gives a key contribute on a space it was refused; a repeat changes nothing; revoke takes it back', async () => {
    expect((await ingest()).error?.data).toMatchObject({ reason: 'not_granted', space: 'closed', capability: 'contribute' });
    const issued = await run(['grant', 'issue', agent.identity, 'closed', 'read,contribute', '--home', gate.home]);
    expect(issued.code, issued.err).toBe(0);
    expect(issued.out).toMatch(new RegExp(`^issued read, contribute on closed to ${agent.identity}: now holds read, contribute; event [0-9a-f]{64}\\n$`));
    expect((await ingest()).result?.state).toBe('L1_SCANNED');
    const again = await run(['grant', 'issue', agent.identity, 'closed', 'contribute', '--home', gate.home]);
    expect(again.code).toBe(0);
    expect(again.out).toBe(`nothing changed: ${agent.identity} holds read, contribute on closed\n`);
    const revoked = await run(['grant', 'revoke', agent.identity, 'closed', 'contribute', '--home', gate.home, '--json']);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.out)).toMatchObject({ action: 'revoke', changed: true, grants: [{ principal: agent.identity, held: ['read'] }] });
    expect((await ingest()).error?.data?.reason).toBe('not_granted');
  });

  it("names a person by email, as people know each other; lists grants", async () => {
    const identity = await addPersonWithCli(gate, 'Ida@example.test', 'a long enough password', 'reader');
    const issued = await run(['grant', 'issue', 'ida@EXAMPLE.test', 'closed', 'read', '--home', gate.home]);
    expect(issued.code, issued.err).toBe(0);
    expect(issued.out).toContain(`to ${identity}: now holds read`);
    const listed = await run(['grant', 'list', '--space', 'closed', '--home', gate.home]);
    expect(listed.code).toBe(0);
    expect(listed.out.split('\n')).toContain(`closed\tread\t${identity}`);
    const json = JSON.parse((await run(['grant', 'list', '--principal', 'ida@example.test', '--json', '--home', gate.home])).out);
    expect(json.grants).toEqual([expect.objectContaining({ principal: identity, space: 'closed', capabilities: ['read'] })]);
  });

  it("exits as gate call: 3 for a capability outside the three, 1 for the gate's refusal, 2 with no gate", async () => {
    const bad = await run(['grant', 'issue', agent.identity, 'closed', 'read,write', '--home', gate.home]);
    expect(bad.code).toBe(3);
    expect(bad.err).toContain('not write');
    const unknownSpace = await run(['grant', 'issue', agent.identity, 'nowhere', 'read', '--home', gate.home]);
    expect(unknownSpace.code).toBe(1);
    expect(unknownSpace.err).toContain('nowhere');
    const nobody = await run(['grant', 'issue', 'nobody@example.test', 'closed', 'read', '--home', gate.home]);
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain('nobody with email nobody@example.test');
    const noGate = await run(['grant', 'list', '--home', join(mkdtempSync(join(tmpdir(), 'gate-none-')), 'home')]);
    expect(noGate.code).toBe(2);
    const help = await run(['grant', 'issue', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('key:<key_id>, uid:<n>, <iss>|<sub>, or a person');
  });
});

describe('gate grant --key (operator proofs on)', () => {
  it('is refused without the operator key and applied with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gate-operator-'));
    const keygen = await run(['operator', 'keygen', '--out', join(dir, 'op.pem')]);
    expect(keygen.code).toBe(0);
    const proofs = await InProcessServer.start({}, tempHome(), { GATE_AUTH_OPERATOR_KEYS: JSON.stringify([keygen.out.trim()]) });
    try {
      const key = await proofs.socket('gv.keys', { action: 'issue', role: 'agent' });
      const principal = `key:${key.result.key_id}`;
      const refused = await run(['grant', 'issue', principal, 'main', 'submit', '--home', proofs.home]);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('proof');
      const proven = await run(['grant', 'issue', principal, 'main', 'submit', '--home', proofs.home, '--key', join(dir, 'op.pem')]);
      expect(proven.code, proven.err).toBe(0);
      expect(proven.out).toContain(`to ${principal}: now holds submit`);
    } finally {
      await proofs.stop();
    }
  });
});
