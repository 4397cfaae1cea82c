import canonicalizeModule from 'canonicalize';

// canonicalize ships with a default export; under NodeNext the callable sits on .default or the module itself.
const canonicalizeFn = ((canonicalizeModule as unknown as { default?: unknown }).default ??
  canonicalizeModule) as (v: unknown) => string | undefined;

/**
 * RFC 8785 (JCS) canonical JSON: the bytes every event id and signature is computed over.
 * Pure (no node:crypto), so the browser's checks of signed JSON share it.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalizeFn(value);
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}
