import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam, workareaParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { KINDS, isKind } from '../../domain/kinds.js';
import { ARTIFACT_STATES } from '../../domain/states.js';
import { areaCompletions } from '../../graph/area-completions.js';
import { graphEdges } from '../../graph/graph-edges.js';
import { graphNodes } from '../../graph/graph-nodes.js';
import { graphRevision } from '../../graph/graph-revision.js';
import { areaSelection, spaceSelection } from '../../graph/graph-selection.js';
import { banAnswer, visibleBans } from '../governance/ban-list.js';
import { producerAnswer, roleAnswer, scannerFindingsAnswer } from '../answer-types.js';

/** The default and the ceiling of nodes in one answer (docs/protocol.md#gvgraph); a larger limit is served as this. */
export const GRAPH_LIMIT = 2000;

const params = z.strictObject({
  spaces: z.array(spaceParam).max(64).optional(),
  states: z.array(z.string().max(64)).max(64).optional(),
  limit: z.number().int().min(1).optional(),
  if_revision: z.string().min(1).max(200).optional(),
  kinds: z.array(z.string().max(64)).max(64).optional(),
  workarea: workareaParam.optional(),
  space: spaceParam.optional(),
});

/** Every operand combination gv.graph refuses (docs/protocol.md#gvgraph), in the order a caller would fix them. */
function refuseCombinations(p: z.output<typeof params>): void {
  if (p.space !== undefined && p.spaces !== undefined) throw invalidParams('space is refused beside spaces', { field: 'space' });
  if (p.workarea !== undefined && p.spaces !== undefined) {
    throw invalidParams('workarea is refused beside spaces: a work area lies in one space, named by space', { field: 'workarea' });
  }
  if (p.space !== undefined && p.workarea === undefined) {
    throw invalidParams('space is read only with workarea; use spaces to choose the spaces of the whole graph', { field: 'space' });
  }
  if (p.kinds !== undefined) {
    if (p.workarea !== undefined) throw invalidParams('kinds is refused beside workarea: a work graph shows every kind', { field: 'kinds' });
    if (p.kinds.length === 0) throw invalidParams('kinds, when given, names at least one kind', { field: 'kinds' });
    const unknown = p.kinds.find((k) => !isKind(k));
    if (unknown !== undefined) {
      throw invalidParams(`unknown kind ${JSON.stringify(unknown)}; the kinds are: ${KINDS.join(', ')}`, { field: 'kinds', kinds: [...KINDS] });
    }
  }
}

const graphNode = z.object({
  artifact_id: z.string(),
  state: z.string(),
  space: z.string(),
  workarea: z.string().nullable(),
  producer: producerAnswer,
  kind: z.string().nullable(),
  content_type: z.string(),
  addressed_to: z.object({ names: z.array(z.string()).optional(), kinds: z.array(z.string()).optional() }).nullable(),
  writer_kind: z.string(),
  ts: z.number().int(),
  label: z.string().nullable().optional().describe('a promoted row: a short label from its masked text'),
  source_uri: z.string().optional().describe('a promoted row'),
  hidden_for: z.array(z.string()).optional().describe('a promoted row hidden from these audiences'),
  cited_by: z
    .array(
      z.object({
        artifact_id: z.string(),
        kind: z.string().nullable(),
        state: z.string(),
        writer_identity: z.string(),
        writer_kind: z.string(),
        ts: z.number().int(),
        state_ts: z.number().int(),
        replaces: z.string().optional().describe('an answer that replaces an earlier one'),
        cancels: z.string().optional().describe('an answer that cancels an earlier one'),
      }),
    )
    .optional()
    .describe('a question: the rows you may read that name it in their derives_from, oldest first'),
  foreign: z.boolean().optional().describe('a work graph: the row lies outside the area asked for'),
  scanner_findings: scannerFindingsAnswer,
});

const graphAnswer = z.object({
  revision: z.string().describe('give it back as if_revision: an unchanged graph answers {revision, unchanged: true} alone'),
  unchanged: z.literal(true).optional(),
  full: z.literal(true).optional(),
  nodes: z.array(graphNode).optional(),
  edges: z
    .array(
      z.object({
        child: z.string(),
        parent: z.string(),
        kind: z.string().describe('a relation kind, or derives_from'),
        by: z.string().nullable().optional(),
        ts: z.number().int(),
        event_id: z.string().optional(),
        group_id: z.string().nullable().optional(),
      }),
    )
    .optional(),
  pins: z.array(z.object({ artifact_id: z.string(), by: z.string().nullable(), ts: z.number().int(), event_id: z.string() })).optional(),
  bans: z.array(banAnswer).optional(),
  total: z.number().int().optional(),
  truncated: z.boolean().optional(),
  counts: z.record(z.string(), z.number().int()).optional(),
  spaces: z.array(z.string()).optional(),
  states: z.array(z.string()).optional(),
  viewer: z.object({ identity: z.string(), role: roleAnswer, sees: z.enum(['all', 'promoted_and_own']) }).optional(),
  space: z.string().optional().describe('a work graph: the space of the area'),
  workarea: z.string().optional().describe('a work graph: the area'),
  completed: z.array(z.object({ writer_identity: z.string(), ts: z.number().int() })).optional().describe("a work graph: the writers whose part of the area is complete"),
});

type GraphAnswer = z.input<typeof graphAnswer>;

export const graphVerb = defineVerb({
  name: 'gv.graph',
  role: 'reader',
  summary: 'The rows you may see as a graph: nodes, relation and derives_from edges, pins; or one work area and its neighbours.',
  params,
  answer: graphAnswer,
  uses: ['store', 'access', 'reads', 'clock'],
  handler({ caller, store, access, reads, clock }, p) {
    refuseCombinations(p);
    const limit = Math.min(p.limit ?? GRAPH_LIMIT, GRAPH_LIMIT);
    // Unknown state names are ignored (docs/protocol.md#gvgraph), not refused.
    const states = p.states?.filter((s) => (ARTIFACT_STATES as readonly string[]).includes(s));
    const seesAll = access.visibility.seesEverything(caller);
    const focus = p.workarea === undefined ? undefined : { space: requireSpace({ store }, p.space ?? 'main'), workarea: p.workarea };
    const spaces = p.spaces === undefined ? store.spaceNames() : [...new Set(p.spaces)].map((s) => requireSpace({ store }, s));
    // The whole answer is read over one snapshot of the views, a chunk at a time (src/long-reads/).
    return reads.run(caller, async (read) => {
      const selection =
        focus !== undefined
          ? await areaSelection(access, read, caller, { ...focus, states, limit })
          : await spaceSelection(access, read, caller, { spaces, kinds: p.kinds, states, limit });
      const { edges, pins } = await graphEdges(read, selection.rows);
      const nodes = await graphNodes(access, read, caller, selection.rows, focus);
      await read.next();
      // The graph's builders (src/graph/) assemble nodes and edges field by field; graphAnswer
      // declares what they hold, and the tests hold every answer to it (src/verbs/answer-check.ts).
      const served: Omit<GraphAnswer, 'revision'> = {
        full: true,
        nodes: nodes as GraphAnswer['nodes'],
        edges: edges as GraphAnswer['edges'],
        pins,
        bans: visibleBans({ store: read.store, access, clock }, caller, GRAPH_LIMIT).bans,
        total: selection.total,
        truncated: selection.truncated,
        counts: selection.counts,
        spaces: store.spaceNames().filter((s) => seesAll || access.capabilities.has(caller, s, 'read')),
        states: [...ARTIFACT_STATES],
        viewer: { identity: caller.identity, role: caller.role, sees: seesAll ? 'all' : 'promoted_and_own' },
      };
      if (focus !== undefined) {
        Object.assign(served, { ...focus, completed: areaCompletions({ store: read.store, access }, caller, focus.space, focus.workarea) });
      }
      const revision = graphRevision(served);
      if (p.if_revision === revision) return { revision, unchanged: true as const };
      return { revision, ...served };
    });
  },
});
