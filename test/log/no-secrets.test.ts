import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeFields, form, pkcePair, signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { parsed, until } from './log-lines.js';

let person: SignedInPerson;
const claim = 'The staging database password is kept in the vault under ops/staging, rotated monthly.';
const wrongPassword = 'not-the-password-9f3c';

const { gate, keys: { agent } } = useGate({
  ownIssuer: true,
  env: { GATE_LOG_LEVEL: 'trace', GATE_AUTH_LOGIN_SLOW_AFTER: '1', GATE_AUTH_LOGIN_REFUSE_AFTER: '2', GATE_AUTH_LOGIN_DELAY_MS: '0' },
  keys: { agent: 'agent' },
});
beforeAll(async () => {
  person = await signIn(gate, { role: 'reviewer' });
  expect((await gate.rpc(agent.key, 'gv.ingest', { content: claim, workarea: 'notes', kind: 'memory', source_uri: 'test://secrets' })).error).toBeUndefined();
  expect((await gate.rpc(person.accessToken, 'gv.ping')).error).toBeUndefined();
  // Wrong passwords for the person's email until the throttle refuses.
  for (let i = 0; i < 3; i++) {
    await gate.http('POST', '/oauth/authorize', form({ ...authorizeFields(gate, pkcePair().challenge), email: person.email, password: wrongPassword }));
  }
  await until(() => gate.stderr.some((l) => l.includes('throttled')), 'the throttled sign-in');
  await gate.stop();
});

describe('the log never holds a credential, a password, an email or a claim', () => {
  it('sign-ins are logged, failed and throttled ones too, the email as a keyed hash', () => {
    const lines = parsed(gate.stderr);
    expect(lines.find((l) => l.msg === 'signed in')).toMatchObject({ level: 'info', identity: person.identity });
    const failed = lines.filter((l) => l.msg.startsWith('sign-in failed'));
    expect(failed.length).toBeGreaterThan(0);
    const throttled = lines.find((l) => l.msg.startsWith('sign-in refused'))!;
    expect(throttled).toMatchObject({ level: 'warn' });
    // One address, one pseudonym: attempts on it can be told apart from others without the address.
    expect(new Set([...failed, throttled].map((l) => l['email']))).toEqual(new Set([throttled['email']]));
    expect(String(throttled['email'])).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('grep finds none of them at the most verbose level', () => {
    const log = gate.stderr.join('\n');
    const [localPart] = person.email.split('@');
    for (const secret of [agent.key, agent.key.slice(3), person.password, wrongPassword, person.email, localPart!, person.accessToken, person.refreshToken, person.idToken, claim, 'ops/staging']) {
      expect(log.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});
