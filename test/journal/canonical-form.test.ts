import { describe, expect, it } from 'vitest';
import canonicalize from 'canonicalize';
import { canonicalJson } from '@gate/client/forms';

/**
 * The journal's canonical JSON is written by hand for speed (canonical-form.ts); every
 * signed byte depends on it, so it must give exactly the bytes of the `canonicalize`
 * package (RFC 8785), which the console still uses to verify them in the browser.
 */
const library = canonicalize as unknown as (value: unknown) => string | undefined;

/** A small seeded generator, so a failure names a value that can be made again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['a', 'Z', '1', ' ', '\u0000', '\u001f', '"', '\\', '/', '\u007f', '\u0080', 'é', '\u2028', '\u20ac', '😀', '\ufb33', '日本'];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 0.000001, 333333333.33333329, 1e30, 4.5, 2e-3, 1e-27, 2 ** 53, -(2 ** 53) + 1, 5e-324, 1.7976931348623157e308];

function anyValue(next: () => number, depth: number): unknown {
  const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const text = () => Array.from({ length: Math.floor(next() * 5) }, () => pick(PIECES)).join('');
  const kind = Math.floor(next() * (depth > 3 ? 5 : 8));
  switch (kind) {
    case 0:
      return text();
    case 1:
      return next() < 0.5 ? pick(NUMBERS) : Math.round((next() - 0.5) * 1e6) / 1e3;
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return Math.floor(next() * 1e9);
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => (next() < 0.1 ? undefined : anyValue(next, depth + 1)));
    default: {
      const record: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 6); i > 0; i--) record[text()] = next() < 0.1 ? undefined : anyValue(next, depth + 1);
      return record;
    }
  }
}

describe('canonical JSON', () => {
  it('sorts keys by UTF-16 code units as RFC 8785 3.2.3 shows', () => {
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // The values in the RFC's order (Object.keys of the parsed text would put "1" first).
    const order = [...canonicalJson(value).matchAll(/:"([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['Carriage Return', 'One', 'Control', 'Latin Small Letter O With Diaeresis', 'Euro Sign', 'Emoji: Grinning Face', 'Hebrew Letter Dalet With Dagesh']);
  });

  it('writes numbers and escapes as RFC 8785 3.2.2 does', () => {
    expect(canonicalJson([333333333.33333329, 1e30, 4.5, 2e-3, 0.000001, 1e-7, 1e21, -0])).toBe(
      '[333333333.3333333,1e+30,4.5,0.002,0.000001,1e-7,1e+21,0]',
    );
    expect(canonicalJson({ b: '\u20ac$\u000f\nA\'B"\\\\"/', a: [] })).toBe('{"a":[],"b":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it('gives the canonicalize package\'s bytes for 3,000 generated values', () => {
    const next = random(20261125);
    for (let i = 0; i < 3000; i++) {
      const value = anyValue(next, 0);
      expect(canonicalJson(value), JSON.stringify(value)).toBe(library(value));
    }
  });

  it('gives the package\'s bytes for an ingest event as the journal seals it', () => {
    const hash = `sha256:${'ab'.repeat(32)}`;
    const event = {
      v: 1,
      seq: 41,
      type: 'scan',
      ts: 1_764_000_000_000,
      prev: hash,
      by: 'key:0123456789abcdef',
      data: {
        artifact_id: hash,
        space: 'main',
        workarea: 'bench/w1',
        leaves: 'L0_RAW',
        enters: 'L1B_FLAGGED',
        findings_count: 1,
        findings: [{ kind: 'secret', severity: 'high', detail: 'AWS key', start: 3, end: 23, excerpt: 'AKIA…' }],
        masked_hash: hash,
        derives_from: [],
        producer: { name: 'bench', kind: 'agent' },
        encoding: undefined,
      },
    };
    expect(canonicalJson(event)).toBe(library(event));
    expect(canonicalJson(event)).not.toContain('encoding');
  });

  it('leaves out undefined members, writes null for undefined array items, and follows toJSON', () => {
    expect(canonicalJson({ b: undefined, a: [undefined, 1], c: new Date(0) })).toBe('{"a":[null,1],"c":"1970-01-01T00:00:00.000Z"}');
  });

  it('refuses what JSON cannot hold exactly, as the package does', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = { back: cycle };
    for (const bad of [Number.NaN, Infinity, [-Infinity], { x: '\ud800' }, { '\udc00': 1 }, 'a\ud83d', cycle]) {
      expect(() => library(bad)).toThrow();
      expect(() => canonicalJson(bad)).toThrow();
    }
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
  });

  it('allows the same object twice where it is not its own ancestor', () => {
    const shared = { k: 'v' };
    expect(canonicalJson({ a: shared, b: [shared, shared] })).toBe('{"a":{"k":"v"},"b":[{"k":"v"},{"k":"v"}]}');
  });
});
