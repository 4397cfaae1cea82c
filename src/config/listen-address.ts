import { isIP } from 'node:net';
import proxyAddr from 'proxy-addr';

export interface ListenAddress {
  host: string;
  port: number;
}

/** `host:port`, or `[v6]:port`, into its parts; null when it is neither. */
export function parseListenAddress(text: string): ListenAddress | null {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (m === null) return null;
  const host = m[1] ?? m[2]!;
  const port = Number(m[3]);
  if (port > 65535) return null;
  if (m[1] !== undefined && isIP(host) !== 6) return null;
  if (m[2] !== undefined && isIP(host) !== 4 && host !== 'localhost') return null;
  return { host, port };
}

export function listenAddressProblem(text: string): string | null {
  return parseListenAddress(text) === null ? `${JSON.stringify(text)} is not host:port (an IPv4 address or localhost, or [IPv6], then a port 0-65535)` : null;
}

/** Whether a trusted-proxy entry is an address or a CIDR proxy-addr reads (the same rule that later decides). */
export function proxyEntryProblem(entry: string): string | null {
  try {
    proxyAddr.compile([entry]);
    return null;
  } catch (error) {
    return `${JSON.stringify(entry)} is not an IP address or CIDR: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** An address as a URL's host: IPv6 in brackets. */
export const urlHost = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/** Where a local client reaches a listener: the loopback address of its family when it listens on every address. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}
