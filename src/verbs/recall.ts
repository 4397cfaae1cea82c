import { z } from 'zod';
import { defineVerb } from './define-verb.js';
import { producerParam, spaceParam, workareaParam } from './param-types.js';
import { requireSpace } from './require-space.js';
import { invalidParams } from '../gate-error.js';
import type { LexicalHit } from '../recall/lexical.js';
import { producerOf } from '../projections/artifact-reads.js';
import type { Gate } from '../gate.js';
import type { Caller } from '../access/caller.js';

const SCOPES = ['closest', 'workarea', 'space', 'all'] as const;
const MODES = ['hybrid', 'lexical', 'vector'] as const;
export const RECALL_K_MAX = 100;

const params = z.strictObject({
  query: z.string().max(4000).optional(),
  scope: z.string().optional(),
  workarea: workareaParam.optional(),
  space: spaceParam.optional(),
  spaces: z.array(spaceParam).min(1).max(64).optional(),
  k: z.number().int().min(1).max(RECALL_K_MAX).optional(),
  mode: z.string().optional(),
  include_provisional: z.boolean().optional(),
  include_superseded: z.boolean().optional(),
  audience: z.string().min(1).max(64).optional(),
  include_hidden: z.boolean().optional(),
  include_own_pending: z.boolean().optional(),
  producer: z.unknown().optional(),
  steering_k: z.number().optional(),
});

function hitOf(h: LexicalHit, held: boolean, body: string | null) {
  const r = h.row;
  return {
    artifact_id: r.artifact_id,
    score: h.score,
    body,
    space: r.space,
    workarea: r.workarea,
    producer: producerOf(r),
    held,
    distance: null,
    provisional: r.provisional === 1,
    provenance: {
      source_uri: r.source_uri,
      trust_class: r.trust_class,
      kind: r.kind,
      content_type: r.content_type,
      writer_kind: r.writer_kind,
      promoted_at: r.promoted_ts,
      ratified: !held,
      ...(held ? { unreviewed: true } : {}),
    },
    signals: { lexical: { rank: h.rank, score: h.score } },
  };
}

/** Which spaces the scope searches; every refusal of spec 2 gv.recall that this build decides. */
function searchedSpaces(gate: Gate, caller: Caller, p: z.output<typeof params>): { scope: string; spaces: string[] } {
  if (p.spaces !== undefined) {
    if (p.scope !== undefined) throw invalidParams('spaces is refused beside a scope', { field: 'spaces' });
    if (p.space !== undefined) throw invalidParams('spaces is refused beside space', { field: 'spaces' });
    const spaces = [...new Set(p.spaces)].map((s) => requireSpace(gate, s));
    for (const s of spaces) gate.capabilities.require(caller, s, 'read');
    return { scope: 'spaces', spaces };
  }
  const scope = p.scope ?? (p.workarea !== undefined ? 'closest' : 'space');
  if (!(SCOPES as readonly string[]).includes(scope)) throw invalidParams(`unknown scope ${JSON.stringify(scope)}`, { field: 'scope' });
  if (scope === 'closest' || scope === 'workarea') {
    throw invalidParams(`scope ${scope} (work-area recall with steering) is not served by this build; use space, all or spaces`, {
      field: 'scope',
    });
  }
  if (p.workarea !== undefined) throw invalidParams(`workarea is refused under scope ${scope}`, { field: 'workarea' });
  if (p.producer !== undefined) throw invalidParams(`producer is refused under scope ${scope}`, { field: 'producer' });
  if (p.steering_k !== undefined) throw invalidParams(`steering_k is refused under scope ${scope}`, { field: 'steering_k' });
  if (scope === 'all') {
    if (p.space !== undefined) throw invalidParams('space is refused under scope all', { field: 'space' });
    const spaces = gate.spaceNames().filter((s) => gate.visibility.seesEverything(caller) || gate.capabilities.has(caller, s, 'read'));
    return { scope, spaces };
  }
  const space = requireSpace(gate, p.space ?? 'main');
  gate.capabilities.require(caller, space, 'read');
  return { scope, spaces: [space] };
}

export const recallVerb = defineVerb({
  name: 'gv.recall',
  role: 'reader',
  summary: "Search promoted claims, plus your own scanned held claims after the ranked hits.",
  params,
  handler({ gate, caller }, p) {
    if (p.producer !== undefined && !producerParam.safeParse(p.producer).success) {
      throw invalidParams('producer must be {name, kind}', { field: 'producer' });
    }
    if (p.steering_k !== undefined && (!Number.isInteger(p.steering_k) || p.steering_k < 1 || p.steering_k > 20)) {
      throw invalidParams('steering_k must be an integer from 1 to 20', { field: 'steering_k' });
    }
    if (p.query === undefined && p.workarea === undefined) {
      throw invalidParams('give a query or a work area', { field: 'query' });
    }
    const mode = p.mode ?? 'lexical';
    if (!(MODES as readonly string[]).includes(mode)) throw invalidParams(`unknown mode ${JSON.stringify(mode)}`, { field: 'mode' });
    if (mode !== 'lexical') {
      throw invalidParams(`mode ${mode} is not served by this build; lexical is`, { field: 'mode' });
    }
    const { scope, spaces } = searchedSpaces(gate, caller, p);
    const k = p.k ?? 10;
    const query = { query: p.query ?? '', spaces, k, includeProvisional: p.include_provisional ?? true };
    const ranked = gate.lexical.promoted(query);
    // Own held rows come after the ranked hits, at most k of them (spec 2: "capped at k apart from ranked").
    const held = p.include_own_pending === false ? [] : gate.lexical.ownHeld(query, caller.identity);
    const hits = [
      ...ranked.map((h) => hitOf(h, false, gate.artifacts.body(h.row.content_hash))),
      ...held.map((h) => hitOf(h, true, gate.artifacts.body(h.row.content_hash))),
    ];
    return {
      scope,
      space: scope === 'space' ? spaces[0] : null,
      workarea: null,
      answered_by: 'lexical',
      hits,
      paths: spaces.map((space) => ({ space, workarea: null })),
      ...(p.audience !== undefined ? { audience: p.audience } : {}),
      steering: [],
      steering_omitted: 0,
    };
  },
});
