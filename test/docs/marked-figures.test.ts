import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/gate-process.js';
import { atPointer, figureProblem, markedFigures } from '../harness/marked-figures.js';

/**
 * A figure the documents mark with the results file and key it comes from agrees with that
 * file (docs/architecture.md, "Figures in the documents"): a bench run that changes it shows
 * up here until the document says the new figure.
 */
const RESULTS = join(ROOT, 'bench', 'results');
const documents = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ file: join(ROOT, 'docs', f), label: `docs/${f}` })),
  { file: join(ROOT, 'README.md'), label: 'README.md' },
  { file: join(ROOT, 'bench', 'README.md'), label: 'bench/README.md' },
];

describe('figures marked with their results file', () => {
  it('agree with the file, as rounded where they are shown', () => {
    const figures = documents.flatMap(({ file, label }) => markedFigures(file, label));
    // The scanner's and recall's quality figures are marked; a mark that no longer parses would leave none.
    expect(figures.length).toBeGreaterThanOrEqual(20);
    expect(figures.map((f) => figureProblem(f, RESULTS)).filter((p) => p !== null)).toEqual([]);
  });

  it('are read as shown: decimals, percents, thousands and bold; a wrong figure or key is named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'figures-'));
    writeFileSync(join(dir, 'r.json'), JSON.stringify({ a: { 'b/c': 0.8315, n: 15423 }, rate: 0.0205 }));
    const doc = join(dir, 'doc.md');
    writeFileSync(
      doc,
      [
        '| x | **0.832**<!-- figure r.json /a/b~1c --> |',
        'held 2.0% <!-- figure r.json /rate --> of 15,423<!-- figure r.json /a/n -->',
        'then 0.84<!-- figure r.json /a/b~1c --> and 3%<!-- figure r.json /rate --> and 1<!-- figure r.json /a/missing --> and 2<!-- figure s.json /a -->',
        'a p50<!-- figure r.json /rate --> is no figure',
      ].join('\n'),
    );
    const figures = markedFigures(doc, 'doc.md');
    expect(figures.map((f) => f.shown)).toEqual(['0.832', '2.0', '15,423', '0.84', '3', '1', '2', null]);
    expect(figures.map((f) => figureProblem(f, dir))).toEqual([
      null,
      null,
      null,
      'doc.md:3: shows 0.84 where r.json/a/b~1c is 0.8315',
      'doc.md:3: shows 3% where r.json/rate is 0.0205',
      'doc.md:3: r.json/a/missing is absent',
      'doc.md:3: s.json is not in bench/results/',
      'doc.md:4: a figure mark with no number right before it',
    ]);
    expect(atPointer({ a: [1, 2] }, '/a/1')).toBe(2);
  });
});
