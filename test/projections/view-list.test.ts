import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, EVENT_TYPES, typesFoldedBy } from '../../src/journal/catalogue/catalogue.js';
import { EVERY_EVENT, LOG_TREE, type View } from '../../src/projections/define-view.js';
import { digestQueries } from '../../src/projections/projections.js';
import { READS_ACROSS_VIEWS, readModelFactories } from '../../src/projections/read-models.js';
import { VIEW_LIST } from '../../src/projections/view-list.js';
import { ROOT } from '../harness/gate-process.js';
import { InProcessGate } from '../harness/in-process-gate.js';

/**
 * Views are declared once (`defineView`, src/projections/define-view.ts) and listed once
 * (src/projections/view-list.ts); the tables, the digest, the rebuild, the reducers and the
 * store's read models come from that list (docs/architecture.md, "Adding a view"). This holds
 * the code to it: no view outside the list, no list of views but it, the names the catalogue
 * folds by exactly the listed views', no table claimed twice or by none, every view's handles
 * the catalogue's, and the store's members the list's.
 */
const PROJECTIONS = join(ROOT, 'src/projections');
const modules = readdirSync(PROJECTIONS).filter((f) => f.endsWith('.ts'));

/** Every source the build compiles (tsconfig.json), by path. */
const SOURCES = ['src', 'pipeline', 'workers'].flatMap((dir) => sourcesUnder(join(ROOT, dir)));

const isView = (value: unknown): value is View =>
  typeof value === 'object' && value !== null && ['name', 'tables', 'digest', 'reducer', 'reads', 'handles'].every((k) => k in value);

/**
 * The tables (not their indexes, not an FTS table's own shadow tables) each view's DDL makes,
 * run in the list's order in one database (a view's DDL may name an earlier view's table).
 */
function tablesMadeByEach(): Map<string, string[]> {
  const db = new Database(':memory:');
  const tables = () => {
    const made = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as { name: string; sql: string }[];
    const virtual = made.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
    return made.map((t) => t.name).filter((name) => !virtual.some((v) => name.startsWith(`${v}_`)));
  };
  try {
    const byView = new Map<string, string[]>();
    for (const view of VIEW_LIST as readonly View[]) {
      const before = new Set(tables());
      db.exec(view.tables('main'));
      byView.set(view.name, tables().filter((t) => !before.has(t)).sort());
    }
    return byView;
  } finally {
    db.close();
  }
}

describe('the view list', () => {
  it('holds every view declared in src/projections/, each once', async () => {
    const declared: { module: string; name: string; listed: boolean }[] = [];
    for (const file of modules) {
      const exports = (await import(join(PROJECTIONS, file))) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        if (isView(value)) declared.push({ module: file, name: value.name, listed: (VIEW_LIST as readonly View[]).includes(value) });
      }
    }
    expect(declared.length).toBe(VIEW_LIST.length);
    expect(declared.filter((d) => !d.listed)).toEqual([]);
    const names = VIEW_LIST.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    // No declaration anywhere else in the source: defineView is called only beside a reducer.
    const callers = SOURCES.filter((f) => !f.startsWith(PROJECTIONS) && readFileSync(f, 'utf8').includes('defineView('));
    expect(callers).toEqual([]);
  });

  it('names exactly the views the catalogue\'s declarations fold by, and the log tree', () => {
    // The journal keeps no list of views: the names are those its declarations give in `folds`
    // (the build holds the two together too: view-list.ts and defineView do not compile else).
    const foldedBy = new Set(EVENT_TYPES.flatMap((type): readonly string[] => CATALOGUE[type].folds));
    expect(foldedBy.size).toBeGreaterThan(20);
    expect(foldedBy.has(LOG_TREE)).toBe(false);
    expect(VIEW_LIST.map((v) => v.name).sort()).toEqual([...foldedBy, LOG_TREE].sort());
  });

  it('is the one list of views: no other source imports a view\'s declaration or lists views\' names', async () => {
    const declarationOf = new Map<string, string>();
    for (const file of modules) {
      const exports = (await import(join(PROJECTIONS, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) if (isView(value)) declarationOf.set(join(PROJECTIONS, file), name);
    }
    const list = join(PROJECTIONS, 'view-list.ts');
    const names = VIEW_LIST.map((v) => v.name as string);
    const importers: string[] = [];
    const lists: string[] = [];
    for (const file of SOURCES.filter((f) => f !== list)) {
      const text = readFileSync(file, 'utf8');
      for (const [, imported, from] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
        const declaration = declarationOf.get(resolve(dirname(file), from!.replace(/\.js$/, '.ts')));
        if (declaration !== undefined && imported!.split(',').some((n) => n.trim() === declaration)) importers.push(`${declaration} in ${relative(ROOT, file)}`);
      }
      // A list of three views' names or more, but a declaration's own `folds` (the views it names, not a list of views).
      for (const [literal] of text.replace(/folds: \[[^\]]*\]/g, '').matchAll(/\[[^[\]]*\]/g)) {
        const named = names.filter((name) => literal.includes(`'${name}'`));
        if (named.length >= 3) lists.push(`${named.join(', ')} in ${relative(ROOT, file)}`);
      }
    }
    expect(declarationOf.size).toBe(VIEW_LIST.length);
    expect(importers).toEqual([]);
    expect(lists).toEqual([]);
  });

  it('gives each view the types the catalogue has it fold, and only declared types', () => {
    for (const view of VIEW_LIST as readonly View[]) {
      if (view.name === LOG_TREE) {
        expect(view.handles).toBe(EVERY_EVENT);
        continue;
      }
      expect(view.handles, view.name).toEqual(typesFoldedBy(view.name));
      expect(view.handles.length, view.name).toBeGreaterThan(0);
      expect((view.handles as readonly string[]).filter((t) => !(EVENT_TYPES as readonly string[]).includes(t)), view.name).toEqual([]);
    }
  });

  it('has each table claimed by one view: the tables its DDL makes are the tables its digest hashes', () => {
    const claims = new Map<string, string[]>();
    const made = tablesMadeByEach();
    for (const view of VIEW_LIST as readonly View[]) {
      const digested = Object.keys(view.digest('main')).sort();
      expect(made.get(view.name), view.name).toEqual(digested);
      for (const table of digested) claims.set(table, [...(claims.get(table) ?? []), view.name]);
    }
    expect([...claims].filter(([, views]) => views.length > 1)).toEqual([]);
    // The digest the rebuild compares (and the drop a new shape makes) covers every claimed table.
    expect(Object.keys(digestQueries('main')).sort()).toEqual([...claims.keys()].sort());
  });

  it('has every table a source of src/projections/ creates claimed by a listed view', () => {
    const claimed = new Set(Object.keys(digestQueries('main')));
    const created = modules.flatMap((file) =>
      [...readFileSync(join(PROJECTIONS, file), 'utf8').matchAll(/CREATE (?:VIRTUAL )?TABLE IF NOT EXISTS \$\{schema\}\.(\w+)/g)].map((m) => `${m[1]} in ${file}`),
    );
    expect(created.length).toBeGreaterThan(40);
    expect(created.filter((c) => !claimed.has(c.split(' ')[0]!))).toEqual([]);
  });

  it('names each read model once, a view\'s own or one across views', () => {
    const names = [...VIEW_LIST.flatMap((v) => Object.keys(v.reads)), ...Object.keys(READS_ACROSS_VIEWS)];
    expect(new Set(names).size).toBe(names.length);
    expect([...readModelFactories().keys()].sort()).toEqual(names.sort());
  });
});

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sourcesUnder(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

describe('a gate built from the list', () => {
  let g: InProcessGate;
  beforeAll(() => {
    g = InProcessGate.open();
  });
  afterAll(async () => {
    await g?.close();
  });

  it('has as its store\'s read models exactly the list\'s, each made', () => {
    const store = g.gate.store as unknown as Record<string, unknown>;
    // The store's own members beside its read models: the journal, the writer, the cursors, and what it keeps private.
    const own = new Set(['journal', 'writer', 'cursors', 'checkpointer', 'db', 'spaceList']);
    const members = Object.keys(store).filter((k) => !own.has(k));
    expect(members.sort()).toEqual([...readModelFactories().keys()].sort());
    expect(members.filter((k) => typeof store[k] !== 'object' || store[k] === null)).toEqual([]);
    expect(members.length).toBeGreaterThan(25);
  });

  it('rebuilds and compares every listed table, and finds them equal to the journal replayed', async () => {
    const { artifact_id } = await g.ingest('a row for the view list to fold');
    await g.promote(artifact_id);
    await g.call(g.reviewer, 'gv.rank', { artifact_id, audience: 'everyone', weight: 2 });
    const report = await g.call(g.admin, 'gv.rebuild', {});
    expect(Object.keys(report.tables).sort()).toEqual(Object.keys(digestQueries('main')).sort());
    expect(report.equal).toBe(true);
    expect(g.gate.store.ranks.totals(artifact_id, 'everyone')).toEqual({ sum: 2, n: 1 });
  });
});
