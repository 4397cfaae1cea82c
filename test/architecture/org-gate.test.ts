import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredLayers, importGraph, layerOf, type Import, type Layer } from './import-graph.js';

/**
 * The organization gate stands on the libraries it shares with the member gate, never on the
 * member gate's internals (docs/architecture.md#two-servers-on-one-library, issue 47 item 6):
 *
 * 1. A file of `src/org/` imports only `src/org/`, the shared libraries (`src/http-rpc/`,
 *    `src/credentials/`, `src/config/`, `src/forms/`, `src/domain/`), a file of rank 0 in the
 *    document's layer table, or the organization gate's own workers.
 * 2. Everything `src/org/` reaches, import after import, is the organization gate's own or in a
 *    layer of rank 2 or lower: no path runs through the member gate's dispatcher, verbs,
 *    surfaces, store, journal or auth. The one crossing is the org's copy worker (below).
 * 3. The shared layer (`src/http-rpc/`, `src/credentials/`) imports nothing above rank 2: not
 *    the organization gate, not the member gate's internals.
 */
const ROOT = join(import.meta.dirname, '../..');
const layers = declaredLayers(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
const { imports } = importGraph(ROOT, ['src', 'pipeline', 'workers', 'packages']);

const ORG = 'src/org/';
const ORG_WORKERS = ['workers/submission-check/', 'workers/org-copy/'];
const SHARED_LAYER = ['src/http-rpc/', 'src/credentials/'];
const SHARED_LIBRARIES = [...SHARED_LAYER, 'src/config/', 'src/forms/', 'src/domain/'];
/** The highest rank of the table the organization gate may stand on. */
const SHARED_RANK = 2;

/**
 * The org's copy worker masks a person's copy with the function the member gate uses
 * (`forPeople`, beside the scanner in workers/scan/) and types findings by the scanner's own
 * `Finding`: it crosses into the member gate nowhere.
 */
const COPY_WORKER_CROSSINGS: string[] = [];

const under = (file: string, folders: readonly string[]) => folders.some((f) => file.startsWith(f));
const rankOf = (layerTable: Layer[], file: string) => layerOf(layerTable, file)?.rank ?? Infinity;
const edge = (i: Import) => `${i.from} → ${i.to}`;

/** Rule 1: the imports of src/org/ that land outside what it may stand on. */
function orgImportsOutside(edges: Import[], layerTable: Layer[]): string[] {
  const allowed = (to: string) => to.startsWith(ORG) || under(to, SHARED_LIBRARIES) || under(to, ORG_WORKERS) || rankOf(layerTable, to) === 0;
  return edges.filter((i) => i.from.startsWith(ORG) && !allowed(i.to)).map(edge);
}

/** Rule 2: the files src/org/ reaches (not through the copy worker) that are neither its own nor of rank SHARED_RANK or lower. */
function orgReachesAbove(edges: Import[], layerTable: Layer[]): string[] {
  const next = new Map<string, string[]>();
  for (const i of edges) next.set(i.from, [...(next.get(i.from) ?? []), i.to]);
  const seen = new Set<string>();
  const stack = edges.filter((i) => i.from.startsWith(ORG)).map((i) => i.to);
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || file.startsWith(ORG) || file.startsWith('workers/org-copy/')) continue;
    seen.add(file);
    stack.push(...(next.get(file) ?? []));
  }
  return [...seen].filter((f) => !under(f, ORG_WORKERS) && rankOf(layerTable, f) > SHARED_RANK).sort();
}

/** Rule 3: the imports of the shared layer that reach above it. */
function sharedLayerImportsAbove(edges: Import[], layerTable: Layer[]): string[] {
  return edges.filter((i) => under(i.from, SHARED_LAYER) && rankOf(layerTable, i.to) > SHARED_RANK).map(edge);
}

describe('the organization gate and the shared layer', () => {
  it('src/org/ imports only itself, the shared libraries, rank 0 and its own workers', () => {
    expect(imports.filter((i) => i.from.startsWith(ORG)).length).toBeGreaterThan(100);
    expect(orgImportsOutside(imports, layers)).toEqual([]);
  });

  it('nothing src/org/ reaches is of the member gate (its copy worker aside)', () => {
    expect(orgReachesAbove(imports, layers)).toEqual([]);
  });

  it('the copy worker crosses into the member gate nowhere', () => {
    const crossings = imports.filter((i) => i.from.startsWith('workers/org-copy/') && rankOf(layers, i.to) > SHARED_RANK && !i.to.startsWith(ORG));
    expect(crossings.map(edge).sort()).toEqual(COPY_WORKER_CROSSINGS);
  });

  it('the shared layer imports nothing above rank 2: not the org gate, not the member gate', () => {
    for (const folder of SHARED_LAYER) expect(layerOf(layers, `${folder}x.ts`)?.rank).toBe(SHARED_RANK);
    expect(sharedLayerImportsAbove(imports, layers)).toEqual([]);
  });

  it('both gates stand on the shared layer', () => {
    const importers = (folder: string) => new Set(imports.filter((i) => i.to.startsWith(folder) && !i.from.startsWith(folder)).map((i) => i.from.split('/').slice(0, 2).join('/')));
    for (const gate of ['src/org', 'src/surfaces']) expect(importers('src/http-rpc/')).toContain(gate);
    for (const gate of ['src/org', 'src/auth']) expect(importers('src/credentials/')).toContain(gate);
    expect(importers('src/http-rpc/')).toContain('src/verbs');
  });

  it('the rules catch an org file on the member gate and a shared file on either gate', () => {
    const fake = (from: string, to: string): Import => ({ from, to, typeOnly: false });
    const edges = [
      fake('src/org/org-dispatch.ts', 'src/verbs/dispatch.ts'),
      fake('src/org/org-home.ts', 'src/journal/deployment-key.ts'),
      fake('src/org/org-server.ts', 'src/http-rpc/json-rpc-body.ts'),
      fake('src/org/org-server.ts', 'src/gate-error.ts'),
      fake('src/http-rpc/json-rpc-body.ts', 'src/verbs/registry.ts'),
      fake('src/credentials/person-tokens.ts', 'src/org/org-context.ts'),
      fake('src/http-rpc/json-rpc-answer.ts', 'src/gate-error.ts'),
    ];
    expect(orgImportsOutside(edges, layers)).toEqual(['src/org/org-dispatch.ts → src/verbs/dispatch.ts', 'src/org/org-home.ts → src/journal/deployment-key.ts']);
    // Through the shared layer to the verbs' registry: reached, so refused.
    expect(orgReachesAbove(edges, layers)).toEqual(['src/journal/deployment-key.ts', 'src/verbs/dispatch.ts', 'src/verbs/registry.ts']);
    expect(sharedLayerImportsAbove(edges, layers)).toEqual(['src/http-rpc/json-rpc-body.ts → src/verbs/registry.ts', 'src/credentials/person-tokens.ts → src/org/org-context.ts']);
  });
});
