import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { LoginThrottle } from '../../dist/src/auth/login-throttle.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({
  kind: 'in-process',
  settings: {
    'auth.login_slow_after': 2,
    'auth.login_refuse_after': 4,
    'auth.login_delay_ms': 1,
    'auth.login_window_s': 600,
  },
});

const password = 'the throttled person';

beforeAll(async () => {
  await server.socket('gv.person_add', { email: 'known@example.test', password });
});

const attempt = (email: string, pw: string) => server.http('POST', '/oauth/authorize', form({ ...authorizeFields(server, pkcePair().challenge), email, password: pw }));

describe('sign-in throttling: slow, then 429 with Retry-After, telling nothing about who exists', () => {
  it('an existing and an unknown email go through the same answers, and then 429 even for the right password', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push((await attempt('known@example.test', 'wrong')).status);
      unknown.push((await attempt('unknown@example.test', 'wrong')).status);
    }
    expect(known).toEqual([200, 200, 200, 200, 429]);
    expect(unknown).toEqual(known);
    const refused = await attempt('known@example.test', password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect(refused.text).toMatch(/Too many attempts/);
  });

  it('after the window the person signs in again (injected clock)', async () => {
    server.clock.advance(601_000);
    expect((await attempt('known@example.test', password)).status).toBe(303);
  });

  it('one client trying many emails is refused past four times the per-email limit', async () => {
    server.clock.advance(601_000);
    const statuses: number[] = [];
    for (let i = 0; i < 17; i++) statuses.push((await attempt(`guess${i}@example.test`, 'wrong')).status);
    expect(statuses.slice(0, 16).every((s) => s === 200)).toBe(true);
    expect(statuses[16]).toBe(429);
  });
});

describe('the throttle slows down before it refuses', () => {
  it('each wrong password past slow_after doubles the wait, up to 8 s, then refuses until the window ends', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle({ slowAfter: 2, refuseAfter: 8, windowMs: 60_000, delayMs: 500 }, { now: () => now });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const verdict = throttle.check('a@example.test', '127.0.0.1');
      expect(verdict.refused).toBe(false);
      waits.push(verdict.refused ? -1 : verdict.delayMs);
      throttle.failed('a@example.test', '127.0.0.1');
    }
    expect(waits).toEqual([0, 0, 500, 1000, 2000, 4000, 8000, 8000]);
    expect(throttle.check('a@example.test', '127.0.0.1')).toEqual({ refused: true, retryAfterS: 60 });
    now += 30_000;
    expect(throttle.check('a@example.test', '127.0.0.1')).toEqual({ refused: true, retryAfterS: 30 });
    now += 30_000;
    expect(throttle.check('a@example.test', '127.0.0.1')).toEqual({ refused: false, delayMs: 0 });
  });
});
