import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';

/** The cookie a browser that signed in here keeps: which person, which device, signed by the gate. */
export const DEVICE_COOKIE = 'gate_device';
/** How long a device stays known without signing in again (each sign-in renews it). */
export const DEVICE_COOKIE_DAYS = 90;
const DAY_MS = 86_400_000;

/** A device cookie that holds: the person it was issued to (their sub) and the device's own id. */
export interface KnownDevice {
  sub: string;
  device: string;
}

/**
 * Device cookies (OWASP's "slow down online guessing attacks with device cookies"): a
 * successful sign-in gives the browser a cookie naming the person and a random device id,
 * MACed with a key derived from the deployment key's seed, so nobody else can make or alter
 * one. A sign-in that presents a valid cookie for the person whose email it types is counted
 * by that device alone (login-throttle.ts): failures of others, at the person's email or from
 * the same address, never lock it out.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(
    seed: Buffer,
    private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', seed).update('gate device cookie key').digest();
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** A fresh cookie value for this person (a new device id, or the one it had, renewed). */
  issue(sub: string, device = randomBytes(16).toString('base64url')): string {
    const body = `v1.${Buffer.from(sub).toString('base64url')}.${device}.${this.clock.now()}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The device a cookie value names, when its MAC holds and it has not expired; else null. */
  read(value: string | undefined): KnownDevice | null {
    if (value === undefined) return null;
    const parts = value.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') return null;
    const body = parts.slice(0, 4).join('.');
    // The MAC's text is compared, not its bytes: a decoder drops the last character's padding
    // bits, so four spellings of one MAC would pass where a cookie has one value.
    const given = Buffer.from(parts[4]!);
    const wanted = Buffer.from(this.mac(body));
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
    const issuedAt = Number(parts[3]);
    if (!Number.isFinite(issuedAt) || this.clock.now() - issuedAt > DEVICE_COOKIE_DAYS * DAY_MS) return null;
    return { sub: Buffer.from(parts[1]!, 'base64url').toString(), device: parts[2]! };
  }

  /** The Set-Cookie line: HttpOnly, SameSite=Strict, sent only to the sign-in form, Secure on https. */
  header(value: string, secure: boolean): string {
    return `${DEVICE_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/oauth/authorize; Max-Age=${DEVICE_COOKIE_DAYS * 86_400}${secure ? '; Secure' : ''}`;
  }
}
