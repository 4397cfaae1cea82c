import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a form POST came from a page of this gate itself, as the browser tells it: the
 * answer is null when it did, else why not.
 *
 * A browser says where a request comes from twice: `Sec-Fetch-Site` (which cannot be set by
 * a page) and `Origin`. Both are checked, and either one naming anything but this gate
 * refuses: `Sec-Fetch-Site` other than `same-origin` (a page on another port of the same
 * loopback host is `same-site`, and still another origin), and an `Origin` that is not one of
 * `ownOrigins`, `null` included (a sandboxed frame, a `data:` page, or a page whose referrer
 * policy withholds its origin: the sign-in page asks for `same-origin` so its own form
 * carries the real one). A request with neither header is no browser's, so no other site
 * can have sent it on a person's behalf: programs sign in that way.
 */
export function foreignFormPost(headers: IncomingHttpHeaders, ownOrigins: readonly string[]): string | null {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `the browser says the form came from a ${site} page`;
  const origin = headers.origin;
  if (origin !== undefined && !ownOrigins.includes(origin)) return `the form came from ${origin === 'null' ? 'a page that hides its origin' : origin}`;
  return null;
}

/**
 * Whether a browser request to a cookie-bearing sign-in route (`/oauth/token`,
 * `/oauth/logout`) came from a page allowed to use the person's session: null when it did,
 * else why not. Allowed: the gate's own pages and the listed app origins (a console served
 * elsewhere calls these cross-origin, so Sec-Fetch-Site says nothing here); any other
 * `Origin`, `null` included, is refused before the cookie is touched. Without the check a
 * page on another port of the same host (same site, so the SameSite=Lax cookie travels)
 * could sign a person out, or spend their refresh token, with a form it never sees the
 * answer of. A request without `Origin` is no browser's: programs send the token in a field.
 */
export function foreignSessionCaller(headers: IncomingHttpHeaders, allowedOrigins: readonly string[]): string | null {
  const origin = headers.origin;
  if (origin === undefined || allowedOrigins.includes(origin)) return null;
  return `a page of ${origin === 'null' ? 'a hidden origin' : origin} may not use this gate's sign-in session`;
}
