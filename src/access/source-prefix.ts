/**
 * How a source ban's prefix meets an ingest's source_uri (README "Bans"). Both sides are
 * put in one normal form first, so spellings of one origin cannot slip past a ban:
 *
 * - the scheme is lower-cased; for the WHATWG special schemes (http, https, ws, wss, ftp,
 *   file) the URL parser then lower-cases the host, writes an IDN host in punycode, drops
 *   the scheme's default port, resolves `.` and `..` segments (also spelled `%2e`) and
 *   gives an empty path its `/`; for any other `scheme://` the host (after any userinfo)
 *   is lower-cased and the rest is kept;
 * - percent-escapes get upper-case hex, and escapes of unreserved characters
 *   (`A-Z a-z 0-9 - . _ ~`) are decoded (RFC 3986 6.2.2); other escapes (`%2F`) stay;
 * - path, query and fragment keep their case.
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

function normalPercent(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** A non-special `scheme://authority...`: the host (after any userinfo) lower-cased. */
function lowerAuthorityHost(rest: string): string {
  if (!rest.startsWith('//')) return rest;
  const end = rest.slice(2).search(/[/?#]/);
  const authority = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
  const after = end < 0 ? '' : rest.slice(2 + end);
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority.toLowerCase() : `${authority.slice(0, at + 1)}${authority.slice(at + 1).toLowerCase()}`;
  return `//${host}${after}`;
}

/** The normal form of a source URI (or of a ban's prefix before its trailing slashes go). */
export function normalSource(uri: string): string {
  const m = SCHEME.exec(uri);
  if (m === null) return normalPercent(uri);
  const scheme = m[1]!.toLowerCase();
  if (SPECIAL_SCHEMES.has(scheme)) {
    try {
      return normalPercent(new URL(uri).href);
    } catch {
      // Not parseable as a URL of its scheme: compared by the generic rules below.
    }
  }
  return normalPercent(`${scheme}:${lowerAuthorityHost(uri.slice(m[0].length))}`);
}

const isCharacterPrefix = (prefix: string) => prefix.includes('?') || prefix.includes('#');

/** A ban's subject as stored and served: the normal form, a path prefix without trailing slashes. */
export function normalPrefix(prefix: string): string {
  const normal = normalSource(prefix);
  return isCharacterPrefix(normal) ? normal : normal.replace(/\/+$/, '');
}

/** Whether `uri` falls under the ban prefix `prefix` (already in normalPrefix form). */
export function sourceMatches(prefix: string, uri: string): boolean {
  if (prefix === '') return false;
  const normal = normalSource(uri);
  if (!normal.startsWith(prefix)) return false;
  if (isCharacterPrefix(prefix) || normal.length === prefix.length) return true;
  return '/?#'.includes(normal[prefix.length]!);
}
