import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A Host header naming a loopback name (a DNS-rebinding page names its own host). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return LOOPBACK_NAMES.has(name.toLowerCase()) || (isIP(name) === 4 && name.startsWith('127.'));
}

/** An Origin that is this gate itself on loopback (its own console). */
export function isSameOriginLoopback(origin: string, port: number | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && isLoopbackHost(url.host) && Number(url.port || 80) === port;
}
