import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { VERBS } from '../../src/verbs/registry.js';
import { verbPartsTable } from '../../src/verbs/verb-parts-table.js';
import { HOUSE_PARTS } from '../../src/verbs/house.js';
import { ARCHITECTURE_DOC, withVerbParts } from '../../scripts/verb-parts.mjs';

/**
 * docs/architecture.md ("What each verb uses") holds the verb-by-part table the registry prints
 * (npm run docs:verbs): a verb added, or a `uses` changed, without printing it again fails here.
 */
const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
const table = verbPartsTable(VERBS);

describe('the verb-by-part table in docs/architecture.md', () => {
  it('is the one the registry prints', () => {
    expect(withVerbParts(doc, table) === doc, 'run npm run build && npm run docs:verbs, and commit docs/architecture.md').toBe(true);
  });

  it('has a row per verb and a column per part, marked where the verb uses the part', () => {
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.length).toBe(VERBS.length);
    const names = ['verb', ...HOUSE_PARTS, 'parts'];
    expect(table.split('\n')[0]).toBe(`| ${names.join(' | ')} |`);
    for (const verb of VERBS) {
      const cells = rows.find((r) => r.startsWith(`| \`${verb.name}\` |`))!.split('|').slice(2, -2).map((c) => c.trim());
      expect(HOUSE_PARTS.filter((_, i) => cells[i] === 'x'), verb.name).toEqual(HOUSE_PARTS.filter((p) => verb.uses.includes(p)));
    }
  });

  it('tells a stale table from the current one', () => {
    const [first, ...rest] = VERBS;
    const stale = verbPartsTable([{ name: first!.name, uses: [...first!.uses, ...HOUSE_PARTS.filter((p) => !first!.uses.includes(p)).slice(0, 1)] }, ...rest]);
    expect(withVerbParts(doc, stale) === doc).toBe(false);
    expect(() => withVerbParts('# no markers\n', table)).toThrow(/no table between/);
  });
});
