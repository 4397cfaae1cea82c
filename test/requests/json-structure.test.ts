import { describe, expect, it } from 'vitest';
import { structureFault } from '../../src/http-rpc/json-structure.js';
import { DuplicateKeyError, parseStrictJson } from '../../packages/client/src/strict-json.js';

// The doors' loop over the text against a real parser (momoa, as the client reads replies):
// on random JSON it must find a repeated key exactly when momoa does, and the same depth.

/** mulberry32: the same cases on every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Few key names, so objects repeat them often; spellings that differ only by escapes; strings
// full of quotes, backslashes and brackets, which must never count as structure.
const KEYS = ['a', 'b', '\\u0061', 'a\\"', 'a\\\\', '\\\\', '{', '\\u0022', '\\"', 'é', '\\u00e9', 'x y', ''];
const STRINGS = ['', 'plain', '\\"', '\\\\', '\\\\\\"', '{\\"a\\":1,\\"a\\":2}', '[[[[', '\\u005b', 'λ🙂', ', \\"k\\": '];

function value(r: () => number, depth: number): string {
  const pick = r();
  if (depth > 6 || pick < 0.35) {
    const leaf = r();
    if (leaf < 0.5) return `"${STRINGS[Math.floor(r() * STRINGS.length)]}"`;
    if (leaf < 0.8) return String(Math.floor(r() * 1000) - 500);
    return ['true', 'false', 'null'][Math.floor(r() * 3)]!;
  }
  const n = Math.floor(r() * 4);
  const items = Array.from({ length: n }, () => value(r, depth + 1));
  if (pick < 0.6) return `[${items.join(r() < 0.5 ? ',' : ' , ')}]`;
  return `{${items.map((v) => `"${KEYS[Math.floor(r() * KEYS.length)]}" :${v}`).join(',\n')}}`;
}

const depthOf = (v: unknown): number => (typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);

describe('structureFault agrees with a real parser', () => {
  it('on 20,000 random texts: repeated keys, and depth', () => {
    const r = rng(20261124);
    let repeats = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = value(r, 0);
      JSON.parse(text);
      let duplicate = false;
      let parsed: unknown;
      try {
        parsed = parseStrictJson(text);
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        duplicate = true;
      }
      const fault = structureFault(text, 1000);
      expect({ text, duplicate: fault?.kind === 'duplicate' }).toEqual({ text, duplicate });
      if (duplicate) {
        repeats += 1;
        continue;
      }
      const depth = depthOf(parsed);
      expect(structureFault(text, depth)).toBeNull();
      if (depth > 0) expect(structureFault(text, depth - 1)).toEqual({ kind: 'depth', limit: depth - 1 });
    }
    // The generator must actually produce both outcomes for the comparison to mean anything.
    expect(repeats).toBeGreaterThan(1000);
    expect(repeats).toBeLessThan(19_000);
  });
});
