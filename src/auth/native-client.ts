/**
 * The `gate` command line as a client of this gate's sign-in provider: a native app in the
 * sense of RFC 8252. It is public (it can keep no secret), so PKCE S256 is what binds a code
 * to it, and it receives the code on a loopback listener of its own (RFC 8252 7.3).
 */
export const NATIVE_CLIENT_ID = 'gate-cli';

/** The one path the command line listens on; only the port varies. */
export const NATIVE_REDIRECT_PATH = '/callback';

/**
 * Exactly `http://127.0.0.1:<port>/callback` or `http://[::1]:<port>/callback`, any port
 * (RFC 8252 7.3: the port is picked at run time, so the server must allow any). An IP
 * literal, never `localhost` (RFC 8252 8.3: a name may resolve off the host, or be answered
 * by another process). Matched on the raw text, so no spelling a URL parser would normalise
 * to it (`127.1`, userinfo, a trailing dot, percent escapes, a query or fragment) passes.
 */
const LOOPBACK_REDIRECT = /^http:\/\/(?:127\.0\.0\.1|\[::1\]):([1-9][0-9]{0,4})\/callback$/;

export function nativeRedirectAllowed(uri: string): boolean {
  const port = LOOPBACK_REDIRECT.exec(uri)?.[1];
  return port !== undefined && Number(port) <= 65535;
}
