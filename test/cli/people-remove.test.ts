import { describe, expect, it } from 'vitest';
import { authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { gateCommand } from '../harness/gate-command.js';

/** `gate people remove` names a person as people know them, by email, as well as by subject. */
const { gate } = useGate({ kind: 'in-process' });

const run = (args: string[], stdin = '') => gateCommand([...args, '--home', gate.home], stdin);

async function signInStatus(email: string, password: string): Promise<number> {
  const fields = authorizeFields(gate, pkcePair().challenge);
  return (await gate.http('POST', '/oauth/authorize', form({ ...fields, email, password }))).status;
}

describe('gate people', () => {
  it('list shows each person by name and email beside the identity', async () => {
    expect((await run(['people', 'add', 'ada@example.test', '--role', 'reviewer', '--name', 'Ada Lovelace', '--password-stdin'], 'analytical engine 1843\n')).code).toBe(0);
    const listed = await run(['people', 'list']);
    expect(listed.out).toMatch(/^reviewer\tAda Lovelace ada@example\.test\thttp:\/\/127\.0\.0\.1:\d+\|[0-9a-f-]{36}/m);
  });

  it('remove takes an email, in any letter case: the person can no longer sign in', async () => {
    expect((await run(['people', 'add', 'bob@example.test', '--role', 'reviewer', '--password-stdin'], 'bobs long password 7\n')).code).toBe(0);
    expect(await signInStatus('bob@example.test', 'bobs long password 7')).toBe(303);
    const removed = await run(['people', 'remove', 'Bob@Example.test']);
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    expect(removed.out).toMatch(/^removed Bob@Example\.test \(http:\/\/127\.0\.0\.1:\d+\|[0-9a-f-]{36}\), was reviewer\n$/);
    expect(await signInStatus('bob@example.test', 'bobs long password 7')).toBe(200);
    expect((await run(['people', 'list'])).out).not.toContain('bob@example.test');
  });

  it('remove by an email nobody has exits 1 and says so; by subject still works', async () => {
    const nobody = await run(['people', 'remove', 'nobody@example.test']);
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain('nobody with email nobody@example.test');
    const listed = JSON.parse((await run(['people', 'list', '--json'])).out).people as Array<{ email?: string; sub: string }>;
    const ada = listed.find((p) => p.email === 'ada@example.test')!;
    const removed = await run(['people', 'remove', ada.sub]);
    expect(removed.code).toBe(0);
    expect(removed.out).toMatch(/^removed http:\/\/127\.0\.0\.1:\d+\|[0-9a-f-]{36}, was reviewer\n$/);
  });
});
