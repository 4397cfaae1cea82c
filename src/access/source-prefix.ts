/**
 * How a source ban's prefix meets an ingest's source_uri (README "Bans"). Both sides are
 * put in one normal form first, so spellings of one place cannot slip past a ban:
 *
 * - leading and trailing spaces and control characters go, and tabs and newlines anywhere
 *   (as the WHATWG URL parser does before it reads a URL);
 * - a string naming a scheme must parse as a WHATWG URL, or it is refused (SourceUriError):
 *   compared as raw text, an unparseable spelling would match no ban. The parser lower-cases
 *   the scheme and a special scheme's host (IDN in punycode), drops a default port, resolves
 *   `.` and `..` (also `%2e`) and gives an empty path its `/`; then userinfo is dropped, a
 *   host's trailing dots are dropped, any other scheme's host is lower-cased too, and repeated
 *   slashes in the path are one (before and after the dot segments are resolved);
 * - percent-escapes get upper-case hex, and escapes of unreserved characters
 *   (`A-Z a-z 0-9 - . _ ~`) are decoded (RFC 3986 6.2.2); other escapes (`%2F`) stay;
 * - path, query and fragment keep their case; a string with no scheme is a plain label,
 *   kept as it is.
 *
 * A prefix without `?` or `#` is a path prefix: its trailing slashes are dropped, and it
 * matches a URI equal to it or continuing with `/`, `?` or `#` (so `https://a.example/docs`
 * and `https://a.example/docs/` match `/docs`, `/docs/x` and `/docs?x`, never `/docs2`, and
 * `https://a.example` never matches `https://a.example.net` or `https://a.example:8443`).
 * A prefix with a query or fragment matches by characters.
 */

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);
const UNRESERVED = /[A-Za-z0-9\-._~]/;
// The WHATWG parser's own first steps: C0 controls and spaces trimmed, tabs and newlines removed.
// eslint-disable-next-line no-control-regex
const EDGE_CONTROLS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/** `scheme://authority` then the path up to `?` or `#`: where repeated slashes are one before the parser sees `..`. */
const AUTHORITY_AND_PATH = /^([A-Za-z][A-Za-z0-9+.-]*:[\\/]{2}[^\\/?#]*)([^?#]*)(.*)$/s;

/** A source_uri (or ban prefix) that names a scheme but is no URL: refused rather than compared as text. */
export class SourceUriError extends Error {}

function normalPercent(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The normal form of a source URI (or of a ban's prefix before its trailing slashes go); throws SourceUriError when it names a scheme and does not parse. */
export function normalSource(uri: string): string {
  const text = uri.replace(EDGE_CONTROLS, '').replace(TAB_OR_NEWLINE, '');
  const m = SCHEME.exec(text);
  if (m === null) return normalPercent(text);
  const special = SPECIAL_SCHEMES.has(m[1]!.toLowerCase());
  const split = AUTHORITY_AND_PATH.exec(text);
  const slashes = special ? /[\\/]{2,}/g : /\/{2,}/g;
  const collapsed = split === null ? text : `${split[1]}${split[2]!.replace(slashes, '/')}${split[3]}`;
  let url: URL;
  try {
    url = new URL(collapsed);
  } catch {
    throw new SourceUriError(`${JSON.stringify(uri.slice(0, 200))} names the scheme ${m[1]} but is not a URL`);
  }
  url.username = '';
  url.password = '';
  if (url.hostname !== '') {
    const host = url.hostname.replace(/\.+$/, '');
    url.hostname = special ? host : host.toLowerCase();
  }
  // What resolving `..` left behind (`/a/..//b`) is collapsed too; an opaque path (`mailto:x`) has no slashes to collapse.
  if (url.pathname.startsWith('/')) url.pathname = url.pathname.replace(/\/{2,}/g, '/');
  return normalPercent(url.href);
}

const isCharacterPrefix = (prefix: string) => prefix.includes('?') || prefix.includes('#');

/** A ban's subject as stored and served: the normal form, a path prefix without trailing slashes. */
export function normalPrefix(prefix: string): string {
  const normal = normalSource(prefix);
  return isCharacterPrefix(normal) ? normal : normal.replace(/\/+$/, '');
}

/** Whether `uri` falls under the ban prefix `prefix` (already in normalPrefix form); a stored source that is no URL matches none. */
export function sourceMatches(prefix: string, uri: string): boolean {
  if (prefix === '') return false;
  let normal: string;
  try {
    normal = normalSource(uri);
  } catch (error) {
    if (error instanceof SourceUriError) return false;
    throw error;
  }
  if (!normal.startsWith(prefix)) return false;
  if (isCharacterPrefix(prefix) || normal.length === prefix.length) return true;
  return '/?#'.includes(normal[prefix.length]!);
}
