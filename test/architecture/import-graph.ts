import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import of the tree: from a file to a file, both relative to the repository root. */
export interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

const SOURCE = /\.(ts|tsx|mts)$/;

function filesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      // A package's build output and installed modules are not its sources.
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'dist') walk(p);
      }
      else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(relative(root, p));
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return out;
}

/** A specifier's target file, as the compiler resolves `./x.js` to `./x.ts`. */
function resolveSpecifier(root: string, from: string, spec: string): string | null {
  const base = resolve(root, dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base.replace(/\.mjs$/, '.mts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return null;
}

/**
 * The repository's own packages (packages/*), by name: each entry of a package's `exports`,
 * `./dist/x.js`, is its source `src/x.ts`, so an import of `@gate/client/forms` is an edge to
 * packages/client/src/forms/index.ts as a relative import would be.
 */
function workspaceEntries(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  const dir = join(root, 'packages');
  if (!existsSync(dir)) return entries;
  for (const name of readdirSync(dir)) {
    const manifest = join(dir, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: Record<string, string | { default?: string }> };
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const file = typeof target === 'string' ? target : target.default;
      if (file === undefined || !file.startsWith('./dist/')) continue;
      const source = join('packages', name, 'src', file.slice('./dist/'.length).replace(/\.js$/, '.ts'));
      entries.set(subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, source);
    }
  }
  return entries;
}

// Static imports and re-exports, type-only ones included (they tie files together for a reader
// as much as value imports do); `import('…')` inside a function is a lazy load, not a layer edge.
// Relative specifiers, and the names of the repository's own packages.
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+|@gate\/[^']+)'/gm;

/** Every relative import among the source files under `dirs`. */
export function importGraph(root: string, dirs: string[]): { files: string[]; imports: Import[] } {
  const files = dirs.flatMap((d) => filesUnder(root, d));
  const packages = workspaceEntries(root);
  const imports: Import[] = [];
  for (const from of files) {
    const text = readFileSync(join(root, from), 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[3]!;
      const to = spec.startsWith('.') ? resolveSpecifier(root, from, spec) : (packages.get(spec) ?? null);
      if (to !== null) imports.push({ from, to, typeOnly: m[2] !== undefined });
    }
  }
  return { files, imports };
}

/** Strongly connected groups of more than one file (Tarjan): each is an import circle. */
export function importCircles(files: string[], imports: Import[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const i of imports) next.get(i.from)?.push(i.to);
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const f of files) if (!order.has(f)) visit(f);
  return circles;
}

/**
 * A layer of the house as docs/architecture.md's table declares it: its rank, the step of a
 * rank split into ordered layers (`7a` below `7b`; none for a rank that is one layer), and
 * where its files are.
 */
export interface Layer {
  rank: number;
  step: string;
  name: string;
  paths: string[];
}

/**
 * The table of layers in docs/architecture.md: rows `| rank | layer | paths |`, the rank a
 * number with an optional step letter, the paths in backticks (a folder ends in `/`). The
 * document is the rule; the test checks the code against it.
 */
export function declaredLayers(markdown: string): Layer[] {
  const layers: Layer[] = [];
  for (const line of markdown.split('\n')) {
    const m = /^\|\s*(\d+)([a-z]?)\s*\|\s*([^|]+?)\s*\|\s*([^|]+)\|/.exec(line);
    if (!m) continue;
    const paths = [...m[4]!.matchAll(/`([^`]+)`/g)].map((p) => p[1]!);
    layers.push({ rank: Number(m[1]), step: m[2]!, name: m[3]!, paths });
  }
  return layers;
}

/** Whether layer `a` sits below layer `b` in the table: a lower rank, or the same rank at an earlier step. */
export function isBelow(a: Layer, b: Layer): boolean {
  return a.rank < b.rank || (a.rank === b.rank && a.step < b.step);
}

/** The layer a file is in: the one whose path names it most closely. */
export function layerOf(layers: Layer[], file: string): Layer | null {
  let best: { layer: Layer; length: number } | null = null;
  for (const layer of layers) {
    for (const p of layer.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (hit && (best === null || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer ?? null;
}

/**
 * The folder a file belongs to, the unit the table ranks: `src/<dir>/`, `workers/<dir>/`,
 * `packages/<name>/`, `pipeline/` (one folder); a file directly in `src/` or `workers/` is a
 * unit of its own.
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'pipeline') return 'pipeline/';
  return parts.length <= 2 ? file : `${parts[0]}/${parts[1]}/`;
}

/** The imports between folders, `from → to` (a folder's imports of itself left out), each with the file imports it counts. */
export function folderImports(imports: Import[]): Map<string, Import[]> {
  const edges = new Map<string, Import[]>();
  for (const i of imports) {
    const from = folderOf(i.from);
    const to = folderOf(i.to);
    if (from === to) continue;
    const key = `${from} → ${to}`;
    edges.set(key, [...(edges.get(key) ?? []), i]);
  }
  return edges;
}

/** The folder pairs that import each other, both ways, type imports counted: `a ⇄ b`, a before b. */
export function twoWayFolders(imports: Import[]): string[] {
  const edges = folderImports(imports);
  const pairs: string[] = [];
  for (const key of edges.keys()) {
    const [from, to] = key.split(' → ') as [string, string];
    if (from < to && edges.has(`${to} → ${from}`)) pairs.push(`${from} ⇄ ${to}`);
  }
  return pairs.sort();
}
