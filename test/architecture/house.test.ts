import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredLayers, folderImports, folderOf, importCircles, importGraph, isBelow, layerOf, twoWayFolders } from './import-graph.js';

/**
 * The house as docs/architecture.md draws it, checked against the code's own imports (issue 34):
 * the gate is a composition root, the layers import downward, no import circle, no SQL in verbs,
 * pure forms apart from the journal. The table ranks folders (issue 47, item 5): no two folders
 * import each other, and an import between folders runs down the table but for the few the
 * document lists.
 */
const ROOT = join(import.meta.dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const { files, imports } = importGraph(ROOT, ['src', 'pipeline', 'workers', 'packages', 'test']);
const sourceFiles = files.filter((f) => !f.startsWith('test/'));
const sourceImports = imports.filter((i) => !i.from.startsWith('test/'));
const layers = declaredLayers(doc);

/** The folder imports the document lists as running upward, each with its reason: `from` → `to`. */
const declaredUpward = new Set(
  [...doc.matchAll(/^- `([^`]+)` → `([^`]+)`/gm)].map((m) => `${m[1]} → ${m[2]}`),
);

describe('the house', () => {
  it('only the server, the CLI and the test harness import the gate', () => {
    const importers = [...new Set(imports.filter((i) => i.to === 'src/gate.ts').map((i) => i.from))].sort();
    const allowed = (f: string) => f === 'src/server.ts' || f.startsWith('src/cli/') || f.startsWith('test/harness/');
    expect(importers.filter((f) => !allowed(f))).toEqual([]);
    expect(importers.length).toBeGreaterThan(0);
  });

  it('has no import circle of more than two files, type imports counted', () => {
    const circles = importCircles(sourceFiles, sourceImports).filter((c) => c.length > 2);
    expect(circles).toEqual([]);
  });

  it('places every source file in a layer of the document', () => {
    expect(layers.length).toBeGreaterThan(5);
    expect(sourceFiles.filter((f) => layerOf(layers, f) === null)).toEqual([]);
  });

  it('ranks folders: each path of the table is a folder, or a file directly in src/ or workers/', () => {
    const paths = layers.flatMap((l) => l.paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => folderOf(p.endsWith('/') ? `${p}a.ts` : p) !== p)).toEqual([]);
  });

  it('has no two folders importing each other, type imports counted', () => {
    expect(folderImports(sourceImports).size).toBeGreaterThan(100);
    expect(twoWayFolders(sourceImports)).toEqual([]);
  });

  it('imports between folders run down the table, but for the ones the document lists with their reasons', () => {
    const upward = [...folderImports(sourceImports)]
      .filter(([, files]) => files.some((i) => isBelow(layerOf(layers, i.from)!, layerOf(layers, i.to)!)))
      .map(([edge]) => edge);
    expect(new Set(upward)).toEqual(declaredUpward);
  });

  it('lists fewer than 5 imports running up the table', () => {
    expect(declaredUpward.size).toBeLessThan(5);
  });

  it('keeps SQL out of the verbs: no prepare() in src/verbs', () => {
    const withSql = sourceFiles.filter((f) => f.startsWith('src/verbs/') && readFileSync(join(ROOT, f), 'utf8').includes('prepare('));
    expect(withSql).toEqual([]);
  });

  it('keeps the client package apart: it imports only its own files, and only the package imports them by path', () => {
    const inPackage = (f: string) => f.startsWith('packages/client/');
    expect(sourceFiles.filter(inPackage).length).toBeGreaterThan(10);
    expect(imports.filter((i) => inPackage(i.from) && !inPackage(i.to))).toEqual([]);
    // The gate takes the package by its name (@gate/client), through the entries it exports, as any project does.
    const byPath = imports.filter((i) => !inPackage(i.from) && !i.from.startsWith('test/') && inPackage(i.to));
    const entries = new Set(['packages/client/src/index.ts', 'packages/client/src/proofs.ts', 'packages/client/src/forms/index.ts']);
    expect(byPath.filter((i) => !entries.has(i.to))).toEqual([]);
  });

  it('keeps the client, the domain, the workers and the tools off the journal', () => {
    const offJournal = (f: string) => ['packages/client/', 'src/domain/', 'workers/', 'src/tools/'].some((p) => f.startsWith(p));
    expect(sourceImports.filter((i) => offJournal(i.from) && i.to.startsWith('src/journal/'))).toEqual([]);
  });
});
