import { z } from 'zod';
import type { Caller } from '../../access/caller.js';
import { defineVerb } from '../define-verb.js';
import { spaceParam, workareaParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import type { AreaProducer, AreaStats, DerivedCitation, SpaceReader } from '../../projections/lineage-reads.js';
import type { LongRead } from '../../long-reads/long-reads.js';
import { pieces, rowidWindows } from '../../long-reads/read-windows.js';
import type { House } from '../house.js';
import { producerAnswer } from '../answer-types.js';

/** Row ids listed per node (when a work area is named) and per derived edge (reviewers only), newest first. */
export const LINEAGE_ROWS_LISTED = 50;
/** Areas whose rows one chunk lists (each a read of at most LINEAGE_ROWS_LISTED rows). */
const AREAS_A_CHUNK = 20;

const lineageRow = z.object({
  artifact_id: z.string(),
  kind: z.string().nullable(),
  content_type: z.string(),
  state: z.string(),
  producer: producerAnswer,
  writer_identity: z.string(),
  ts: z.number().int(),
});

export interface LineageNode {
  name: string;
  implicit: boolean;
  writers: string[];
  states: Record<string, 'open' | 'complete'>;
  producers: { name: string; kind: string | null; rows: number; last_write: number }[];
  promoted: number;
  held: number;
  recorded: number;
  first_write: number | null;
  last_write: number | null;
  rows?: z.output<typeof lineageRow>[];
}

interface LineageEdge {
  source: string;
  target: string;
  provenance: 'path' | 'declared' | 'derived';
  kind?: string;
  by?: string;
  producer?: { name: string; kind: string | null };
  count?: number;
  rows?: string[];
}

/**
 * C6 for one space: every row from reviewer up; below, the caller's own rows and, where it
 * may read the space, promoted rows (the SQL is store.lineage's).
 */
function visibleInSpace(house: Pick<House, 'access'>, caller: Caller, space: string): SpaceReader {
  if (house.access.visibility.seesEverything(caller)) return { all: true, identity: caller.identity, readable: true };
  return { all: false, identity: caller.identity, readable: house.access.capabilities.has(caller, space, 'read') };
}

const parentOf = (name: string) => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : null);

/** SQLite's order of text (bytes) for the names it sorted: producer names, areas and kinds are ASCII, where code units agree. */
const byCode = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/**
 * The space's rows as lineage reads them, walked a window of rowids a chunk over the read's
 * snapshot and merged: each area's counts and writes, its producers, who wrote its promoted
 * rows, and the rows citing another area (newest child first).
 */
async function spaceRows(read: LongRead, space: string, vis: SpaceReader) {
  const lineage = read.store.lineage;
  const stats = new Map<string, AreaStats>();
  const producers = new Map<string, AreaProducer>();
  const promotedWriters = new Map<string, { workarea: string; identity: string }>();
  const derived: DerivedCitation[] = [];
  for await (const window of rowidWindows(read, read.store.artifacts.lastRowid(), 'newest')) {
    for (const s of lineage.areaStats(window, space, vis)) {
      const had = stats.get(s.name);
      stats.set(
        s.name,
        had === undefined
          ? s
          : {
              name: s.name,
              promoted: had.promoted + s.promoted,
              held: had.held + s.held,
              recorded: had.recorded + s.recorded,
              first_write: Math.min(had.first_write, s.first_write),
              last_write: Math.max(had.last_write, s.last_write),
            },
      );
    }
    for (const p of lineage.producers(window, space, vis)) {
      const key = `${p.workarea}\n${p.name}\n${p.kind ?? ''}`;
      const had = producers.get(key);
      producers.set(key, had === undefined ? p : { ...had, rows: had.rows + p.rows, last_write: Math.max(had.last_write, p.last_write) });
    }
    if (vis.readable && !vis.all) for (const w of lineage.promotedWritersOf(window, space)) promotedWriters.set(`${w.workarea}\n${w.identity}`, w);
    derived.push(...lineage.derivedCitations(window, space, vis));
  }
  return {
    stats: [...stats.values()].sort((a, b) => byCode(a.name, b.name)),
    producers: [...producers.values()].sort((a, b) => byCode(a.workarea, b.workarea) || byCode(a.name, b.name) || byCode(a.kind, b.kind)),
    promotedWriters: [...promotedWriters.values()],
    derived,
  };
}

/** The space's areas as the caller may see them: every node and edge, before any focus on one area. */
async function spaceGraph(house: Pick<House, 'access'>, read: LongRead, caller: Caller, space: string): Promise<{ nodes: Map<string, LineageNode>; edges: LineageEdge[] }> {
  const all = house.access.visibility.seesEverything(caller);
  const vis = visibleInSpace(house, caller, space);
  const reads = read.store.workareas;
  const rows = await spaceRows(read, space, vis);

  const nodes = new Map<string, LineageNode>();
  for (const s of rows.stats) nodes.set(s.name, { ...s, implicit: false, writers: [], states: {}, producers: [] });
  for (const { workarea, ...producer } of rows.producers) nodes.get(workarea)!.producers.push(producer);

  // Writers below reviewer: the caller where it wrote, and writers of promoted rows it may read; never a held-only writer.
  const parts = new Map(reads.partsOfSpace(space).map((part) => [`${part.workarea}\n${part.identity}`, part]));
  const shownWriters: { workarea: string; identity: string }[] = all
    ? [...parts.values()]
    : [
        ...[...parts.values()].filter((part) => part.identity === caller.identity),
        ...(vis.readable ? rows.promotedWriters : []),
      ];
  for (const { workarea, identity } of shownWriters) {
    const node = nodes.get(workarea);
    const part = parts.get(`${workarea}\n${identity}`);
    if (node === undefined || part === undefined || node.states[identity] !== undefined) continue;
    node.writers.push(identity);
    node.states[identity] = part.completed_seq === null ? 'open' : 'complete';
  }
  for (const node of nodes.values()) node.writers.sort();

  const edges: LineageEdge[] = [];
  for (const r of reads.relationsOfSpace(space)) {
    if (!nodes.has(r.workarea) || !nodes.has(r.target) || nodes.get(r.workarea)!.states[r.by] === undefined) continue;
    edges.push({
      source: r.workarea,
      target: r.target,
      provenance: 'declared',
      kind: r.kind,
      by: r.by,
      ...(r.producer_name === null ? {} : { producer: { name: r.producer_name, kind: r.producer_kind } }),
    });
  }

  // A child citing several rows of one other area counts once toward that edge.
  const byPair = new Map<string, LineageEdge & { rows: string[] }>();
  for (const d of rows.derived) {
    const key = `${d.source}\n${d.target}`;
    const edge = byPair.get(key) ?? { source: d.source, target: d.target, provenance: 'derived' as const, count: 0, rows: [] };
    edge.count! += 1;
    if (edge.rows.length < LINEAGE_ROWS_LISTED) edge.rows.push(d.child);
    byPair.set(key, edge);
  }
  // Below reviewer a derived edge is a count: which rows cite across areas is the reviewers' view.
  for (const edge of byPair.values()) edges.push(all ? edge : { ...edge, rows: undefined });

  for (const name of [...nodes.keys()]) {
    for (let up = parentOf(name); up !== null && !nodes.has(up); up = parentOf(up)) {
      nodes.set(up, { name: up, implicit: true, writers: [], states: {}, producers: [], promoted: 0, held: 0, recorded: 0, first_write: null, last_write: null });
    }
  }
  for (const name of nodes.keys()) {
    const up = parentOf(name);
    if (up !== null) edges.push({ source: name, target: up, provenance: 'path' });
  }
  return { nodes, edges };
}

/** The named area, everything it depends on and everything that depends on it, each followed transitively. */
function lineageOf(name: string, edges: LineageEdge[]): Set<string> {
  const selected = new Set([name]);
  for (const [from, to] of [['source', 'target'], ['target', 'source']] as const) {
    const next = new Map<string, string[]>();
    for (const e of edges) next.set(e[from], [...(next.get(e[from]) ?? []), e[to]]);
    const walk = [name];
    const reached = new Set([name]);
    while (walk.length > 0) {
      for (const n of next.get(walk.pop()!) ?? []) {
        if (reached.has(n)) continue;
        reached.add(n);
        selected.add(n);
        walk.push(n);
      }
    }
  }
  return selected;
}

const PROVENANCE_ORDER = { path: 0, declared: 1, derived: 2 };
const compareEdges = (a: LineageEdge, b: LineageEdge) =>
  PROVENANCE_ORDER[a.provenance] - PROVENANCE_ORDER[b.provenance] ||
  a.source.localeCompare(b.source) ||
  a.target.localeCompare(b.target) ||
  (a.kind ?? '').localeCompare(b.kind ?? '') ||
  (a.by ?? '').localeCompare(b.by ?? '');

export const lineageNode = z.object({
  name: z.string(),
  implicit: z.boolean().describe('an ancestor nobody wrote into, drawn for the path'),
  writers: z.array(z.string()),
  states: z.record(z.string(), z.enum(['open', 'complete'])).describe("each writer's part: open or complete"),
  producers: z.array(z.object({ name: z.string(), kind: z.string().nullable(), rows: z.number().int(), last_write: z.number().int() })),
  promoted: z.number().int(),
  held: z.number().int(),
  recorded: z.number().int(),
  first_write: z.number().int().nullable(),
  last_write: z.number().int().nullable(),
  rows: z
    .array(lineageRow)
    .optional()
    .describe("with a work area: each area's rows you may see, newest first"),
});

export const lineageAnswer = z.object({
  space: z.string(),
  workarea: z.string().nullable(),
  nodes: z.array(lineageNode),
  edges: z.array(
    z.object({
      source: z.string(),
      target: z.string(),
      provenance: z.enum(['path', 'declared', 'derived']),
      kind: z.string().optional().describe('a declared edge: how the areas relate'),
      by: z.string().optional().describe('a declared edge: who declared it'),
      producer: producerAnswer.optional(),
      count: z.number().int().optional().describe('a derived edge: how many rows cite across it'),
      rows: z.array(z.string()).optional().describe('a derived edge, to reviewers: the citing rows'),
    }),
  ),
});

export const lineageVerb = defineVerb({
  name: 'gv.lineage',
  role: 'reader',
  summary: 'The work areas of a space as a graph with path, declared and derived edges; with a work area, its lineage alone.',
  params: z.strictObject({ space: spaceParam.optional(), workarea: workareaParam.optional() }),
  answer: lineageAnswer,
  uses: ['store', 'access', 'reads'],
  handler({ caller, store, access, reads }, p) {
    const space = requireSpace({ store }, p.space ?? 'main');
    return reads.run(caller, async (read) => {
      const graph = await spaceGraph({ access }, read, caller, space);
      let nodes = [...graph.nodes.values()];
      let edges = graph.edges;
      if (p.workarea !== undefined) {
        // An area the caller cannot see answers as one nobody wrote into: an empty graph.
        const selected = graph.nodes.has(p.workarea) ? lineageOf(p.workarea, edges) : new Set<string>();
        nodes = nodes.filter((n) => selected.has(n.name));
        edges = edges.filter((e) => selected.has(e.source) && selected.has(e.target));
        const vis = visibleInSpace({ access }, caller, space);
        for await (const piece of pieces(read, nodes, AREAS_A_CHUNK)) {
          for (const node of piece) {
            const rows = node.implicit ? [] : read.store.lineage.areaRows(space, node.name, vis, LINEAGE_ROWS_LISTED);
            node.rows = rows.map(({ producer_name, producer_kind, ...row }) => ({
              ...row,
              producer: producer_name === null ? null : { name: producer_name, kind: producer_kind },
            }));
          }
        }
      }
      return {
        space,
        workarea: p.workarea ?? null,
        nodes: nodes.sort((a, b) => a.name.localeCompare(b.name)),
        edges: edges.sort(compareEdges).map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as LineageEdge),
      };
    });
  },
});
