/**
 * RFC 8785 (JCS) canonical JSON: the bytes every event id and signature is computed over.
 * Pure (no node:crypto), so the browser's checks of signed JSON share it.
 *
 * Written here rather than taken from the `canonicalize` package, which the console and the
 * tests still use to check these bytes independently: its 4.x line makes a Set, a surrogate
 * scan and a JSON.stringify for every key, and was a third of the main thread's allocations
 * under ingest (two events a claim; issue 16), while its rewrite (5.x) needs Node 22. The
 * rules are the RFC's for JSON data: keys sorted by UTF-16 code units (Array.prototype.sort's
 * own order), strings and numbers as ECMAScript's JSON.stringify writes them (which RFC 8785
 * adopts), no whitespace. Like the package, it refuses what JSON cannot hold exactly (NaN,
 * infinities, lone surrogates, cycles) and treats undefined as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  const text = canonical(value, []);
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}

/**
 * String.prototype.isWellFormed: ES2024, in Node 20 and every browser the console serves
 * (Chromium 111, Firefox 119, Safari 16.4), but not in the console's ES2023 typings.
 */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

function canonical(value: unknown, path: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      if (!wellFormed(value)) throw new Error('Lone surrogate is not allowed');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`${value} is not allowed`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    case 'bigint':
      throw new TypeError('a BigInt has no JSON form');
    default:
      // undefined, functions and symbols: left out of objects, null in arrays.
      return undefined;
  }
  if (value === null) return 'null';
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return canonical(toJSON.call(value), path);
  if (path.includes(value)) throw new Error('Circular reference detected');
  path.push(value);
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + (canonical(value[i], path) ?? 'null');
    text += ']';
  } else {
    const record = value as Record<string, unknown>;
    text = '{';
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const member = canonical(record[key], path);
      if (member === undefined) continue;
      text += `${first ? '' : ','}${canonical(key, path)}:${member}`;
      first = false;
    }
    text += '}';
  }
  path.pop();
  return text;
}
