import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/auth/login-throttle.js';
import { DeviceCookies } from '../../src/auth/device-cookies.js';
import { MovableClock } from '../harness/in-process-server.js';

const options = { slowAfter: 3, refuseAfter: 10, windowMs: 900_000, delayMs: 500 };

describe('the sign-in throttle', () => {
  it('counts a known device by itself: failures at the email or from the address never refuse it, its own do', () => {
    const clock = new MovableClock();
    const throttle = new LoginThrottle(options, clock);
    for (let i = 0; i < 10; i++) throttle.failed({ email: 'carol@example.com', client: '203.0.113.9' });
    expect(throttle.check({ email: 'carol@example.com', client: '198.51.100.1' })).toMatchObject({ refused: true });
    expect(throttle.check({ email: 'carol@example.com', client: '203.0.113.9', device: 'd1' })).toEqual({ refused: false, delayMs: 0 });
    for (let i = 0; i < 10; i++) throttle.failed({ email: 'carol@example.com', client: '203.0.113.9', device: 'd1' });
    expect(throttle.check({ email: 'carol@example.com', client: '203.0.113.9', device: 'd1' })).toMatchObject({ refused: true });
    expect(throttle.check({ email: 'carol@example.com', client: '203.0.113.9', device: 'd2' })).toEqual({ refused: false, delayMs: 0 });
    clock.advance(options.windowMs);
    expect(throttle.check({ email: 'carol@example.com', client: '198.51.100.1' })).toEqual({ refused: false, delayMs: 0 });
  });

  it('counts each client address by itself, with four times the room', () => {
    const throttle = new LoginThrottle(options, new MovableClock());
    for (let i = 0; i < 40; i++) throttle.failed({ email: `made-up-${i}@example.com`, client: '203.0.113.9' });
    expect(throttle.check({ email: 'carol@example.com', client: '203.0.113.9' })).toMatchObject({ refused: true });
    expect(throttle.check({ email: 'carol@example.com', client: '198.51.100.1' })).toEqual({ refused: false, delayMs: 0 });
  });

  it("a known device's sign-in clears its own count and leaves the email's, so a guesser stays slowed", () => {
    const throttle = new LoginThrottle(options, new MovableClock());
    for (let i = 0; i < 5; i++) throttle.failed({ email: 'carol@example.com', client: '203.0.113.9' });
    throttle.failed({ email: 'carol@example.com', client: '198.51.100.1', device: 'd1' });
    throttle.succeeded({ email: 'carol@example.com', client: '198.51.100.1', device: 'd1' });
    expect(throttle.check({ email: 'carol@example.com', client: '192.0.2.1' })).toMatchObject({ refused: false, delayMs: 2000 });
  });
});

describe('device cookies', () => {
  const seed = Buffer.alloc(32, 7);
  it('name the person and the device, keep the device id when renewed, and are refused when altered, foreign or expired', () => {
    const clock = new MovableClock();
    const cookies = new DeviceCookies(seed, clock);
    const value = cookies.issue('sub-1');
    const known = cookies.read(value)!;
    expect(known.sub).toBe('sub-1');
    expect(cookies.read(cookies.issue('sub-1', known.device))!.device).toBe(known.device);
    const parts = value.split('.');
    expect(cookies.read([parts[0], Buffer.from('sub-2').toString('base64url'), ...parts.slice(2)].join('.'))).toBeNull();
    // The signature's first character changed to another: it carries six whole bits, where the
    // last ones carry padding a decoder drops (writing "xx" over the end once altered nothing).
    const signature = parts.at(-1)!;
    const altered = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(cookies.read([...parts.slice(0, -1), altered].join('.'))).toBeNull();
    // The same MAC spelled otherwise (its last character's padding bits set) is refused too.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(signature.at(-1)!) + 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(cookies.read([...parts.slice(0, -1), respelled].join('.'))).toBeNull();
    expect(new DeviceCookies(Buffer.alloc(32, 8), clock).read(value)).toBeNull();
    expect(cookies.read('v1.garbage')).toBeNull();
    clock.advance(91 * 86_400_000);
    expect(cookies.read(value)).toBeNull();
  });

  it('are set HttpOnly, SameSite=Strict, for the sign-in form only, Secure when asked', () => {
    const cookies = new DeviceCookies(seed, new MovableClock());
    expect(cookies.header('v', true)).toBe('gate_device=v; HttpOnly; SameSite=Strict; Path=/oauth/authorize; Max-Age=7776000; Secure');
    expect(cookies.header('v', false)).not.toContain('Secure');
  });
});
