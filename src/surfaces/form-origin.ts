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
