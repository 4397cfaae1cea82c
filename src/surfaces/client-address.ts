import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { isLoopbackAddress } from './loopback.js';

/** Who sent a request, as far as this gate may believe it. */
export interface RequestClient {
  /** The client's address: the peer's, or the one a trusted proxy forwarded. */
  address: string;
  /** Whether the request came through a proxy listed in `server.trusted_proxies`. */
  proxied: boolean;
  /** The scheme the client used: `https` only when a trusted proxy says so (X-Forwarded-Proto); a direct request is plain HTTP. */
  protocol: 'http' | 'https';
  /** Whether the client itself (not the proxy) is on this host's loopback. */
  loopback: boolean;
}

const CLIENT = Symbol('gate request client');
type Marked = IncomingMessage & { [CLIENT]?: RequestClient };

/**
 * The client of a request, read from the forwarding headers only when the peer is a proxy
 * the operator listed (`server.trusted_proxies`, addresses or CIDRs); from anyone else they
 * are ignored, so a caller cannot name its own address. X-Forwarded-For is walked from the
 * right by proxy-addr (Express's rule): each hop a listed proxy vouches for is passed over,
 * and the first address no listed proxy is at is the client. Every decision the gate makes
 * on "the caller is on loopback" (keyless /mcp, the loopback origins of /mcp and the sign-in
 * form) and every count by client (the sign-in throttle, the sign-in routes' share) reads
 * this, so a proxy on the same host never makes the internet a loopback caller.
 */
export class ClientAddresses {
  private readonly trust: ((address: string, hop: number) => boolean) | null;

  constructor(trustedProxies: readonly string[]) {
    this.trust = trustedProxies.length === 0 ? null : proxyAddr.compile([...trustedProxies]);
  }

  of(req: IncomingMessage): RequestClient {
    const marked = req as Marked;
    const known = marked[CLIENT];
    if (known !== undefined) return known;
    const peer = req.socket.remoteAddress ?? 'unknown';
    let client: RequestClient;
    if (this.trust === null || peer === 'unknown' || !this.trust(peer, 0)) {
      client = { address: peer, proxied: false, protocol: 'http', loopback: isLoopbackAddress(peer) };
    } else {
      const address = proxyAddr(req, this.trust);
      client = { address, proxied: true, protocol: forwardedProto(req), loopback: isLoopbackAddress(address) };
    }
    marked[CLIENT] = client;
    return client;
  }
}

/**
 * X-Forwarded-Proto from a trusted proxy: its last value, the one the proxy nearest to the
 * gate set (a proxy that appends keeps what its client claimed on the left).
 */
function forwardedProto(req: IncomingMessage): 'http' | 'https' {
  const header = req.headers['x-forwarded-proto'];
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined) return 'http';
  const last = text.split(',').pop()!.trim().toLowerCase();
  return last === 'https' ? 'https' : 'http';
}
