import { type GateClient, GateClientError } from '@gate/client';
import { ErrorCode, GateError, invalidParams, lifecycle } from '../gate-error.js';
import { findTool, toolAnswer, toolArguments, toolError, ToolProtocolError, type ToolResult } from '../tools/call-tool.js';
import { rememberTool } from '../tools/remember-tool.js';
import { recallTool } from '../tools/recall-tool.js';
import { Forwarder, gateUnavailable } from './forwarder.js';
import { isKind } from '../domain/kinds.js';
import type { LocalClaim, LocalStore } from './local-store.js';

type Args = Record<string, any>;

const parse = (text: string | null) => (text === null ? null : JSON.parse(text));

/** A local claim as the tools show it: its handle is the gate's id once stamped. */
const handleOf = (c: LocalClaim) => c.gate_id ?? c.local_id;
const localState = (c: LocalClaim) => (c.refusal !== null ? 'REFUSED' : 'LOCAL');
/** A local claim's content_type is a kind or a recorded-path class (evidence, which has no kind). */
const kindOf = (c: LocalClaim) => (isKind(c.content_type) ? c.content_type : null);

/**
 * The plugin tier: in-harness memory that works with no gate running. Every tool answers
 * from the gate when one is reachable (through the same verbs as every other surface) and
 * from the local store when none is; what was remembered locally is forwarded when a gate
 * appears. Claims no gate has stamped have `local:` handles and state LOCAL.
 */
export class PluginTier {
  readonly forwarder: Forwarder;

  constructor(
    private readonly store: LocalStore,
    private readonly gate: GateClient | null,
    private readonly session: string,
    private readonly now: () => number,
  ) {
    this.forwarder = new Forwarder(store, gate, now);
  }

  get sessionArea(): string {
    return `plugin/${this.session}`;
  }

  async call(name: string, raw: unknown): Promise<ToolResult> {
    const tool = findTool('plugin', name);
    try {
      const args = toolArguments(tool, 'plugin', raw) as Args;
      switch (tool.name) {
        case 'gate.remember':
          return toolAnswer(tool, await this.remember(args));
        case 'gate.recall':
          return toolAnswer(tool, await this.recall(args));
        case 'gate.status':
          return toolAnswer(tool, await this.status(args));
        case 'gate.pending':
          return toolAnswer(tool, await this.pending(args));
        case 'gate.workarea':
          return toolAnswer(tool, await this.workarea(args));
        case 'gate.complete':
          return toolAnswer(tool, await this.complete(args));
        case 'gate.workarea_relate':
          return toolAnswer(tool, await this.relate(args));
        default:
          return toolAnswer(tool, await this.lineage(args));
      }
    } catch (error) {
      if (error instanceof GateError && error.code !== ErrorCode.internal) return toolError(error);
      if (error instanceof GateClientError && error.code !== undefined) return toolError(new GateError(error.code, error.message, error.data));
      throw new ToolProtocolError(ErrorCode.internal, `internal error: ${(error as Error).message}`);
    }
  }

  /** A verb on the gate, or null when no gate answers. */
  private async onGate(method: Parameters<GateClient['call']>[0], params: Args): Promise<Record<string, unknown> | null> {
    if (this.gate === null || !(await this.forwarder.forward())) return null;
    try {
      return await (this.gate.call as (m: string, p: Args) => Promise<Record<string, unknown>>)(method, params);
    } catch (error) {
      if (gateUnavailable(error)) return null;
      throw error;
    }
  }

  private async remember(a: Args) {
    const space = a.space ?? 'main';
    const subagent = a.producer && a.producer.name !== 'main' ? (a.producer.name as string) : null;
    const workarea = (a.workarea as string | undefined) ?? (subagent ? `${this.sessionArea}/${subagent}` : this.sessionArea);
    if (this.store.completion(space, workarea)) throw lifecycle(`your part of work area ${workarea} is complete`, 'work_complete');
    const firstThere = this.store.claimsIn(space, workarea).length === 0;
    const claim = this.store.addClaim({
      space,
      workarea,
      content: a.content,
      content_type: a.content_type,
      source_uri: a.source_uri,
      producer: a.producer ? JSON.stringify(a.producer) : null,
      derives_from: a.derives_from ? JSON.stringify(a.derives_from) : null,
      addressed_to: a.addressed_to ? JSON.stringify(a.addressed_to) : null,
      created_ts: this.now(),
    });
    // A subagent's first write into its own area relates that area to the session's.
    if (subagent && firstThere && workarea === `${this.sessionArea}/${subagent}`) {
      this.store.addRelation({ space, workarea, kind: 'opened_by', target: this.sessionArea, note: null });
    }
    await this.forwarder.forward();
    const now = this.store.claim(claim.local_id)!;
    if (now.refusal !== null) {
      // A ban is answered as the gate answered it (-32009), so the agent knows its writes are turned away.
      if (now.refusal_code === ErrorCode.banned) throw new GateError(ErrorCode.banned, `the gate refused the claim: ${now.refusal}`, { local_id: now.local_id });
      throw invalidParams(`the gate refused the claim: ${now.refusal}`, { local_id: now.local_id });
    }
    if (now.gate_id !== null) {
      return { ...rememberTool.answer({ artifact_id: now.gate_id, state: now.gate_state, space, workarea }, a as never), local_id: now.local_id };
    }
    return { artifact_id: now.local_id, state: 'LOCAL', space, workarea };
  }

  private localHit(c: LocalClaim) {
    return {
      artifact_id: handleOf(c),
      body: c.content,
      space: c.space,
      workarea: c.workarea,
      producer: parse(c.producer),
      held: true,
      distance: null,
      provisional: false,
      provenance: { local: true, ratified: false, state: localState(c), source_uri: c.source_uri, content_type: c.content_type },
    };
  }

  private async recall(a: Args) {
    const k = a.k ?? 10;
    const fromGate = await this.onGate('gv.recall', recallTool.params(a));
    if (fromGate !== null) {
      const answer = recallTool.answer(fromGate, a) as { results: Record<string, unknown>[] };
      // Whatever the gate could not take yet (none, once forwarding caught up) is still the caller's own.
      const local = a.query !== undefined && a.include_own_pending !== false ? this.store.search(a.query, k, true).map((c) => this.localHit(c)) : [];
      return { ...answer, results: [...answer.results, ...local] };
    }
    const hits =
      a.query !== undefined
        ? this.store.search(a.query, k, false)
        : a.workarea !== undefined
          ? this.store.claimsIn(a.space ?? 'main', a.workarea).slice(0, k)
          : [];
    if (a.query === undefined && a.workarea === undefined) throw invalidParams('give a query or a work area', { field: 'query' });
    const shown = a.include_evidence === false ? hits.map((c) => { const { provenance: _p, ...h } = this.localHit(c); return h; }) : hits.map((c) => this.localHit(c));
    return {
      scope: 'local',
      space: a.space ?? 'main',
      workarea: a.workarea ?? null,
      answered_by: { mode: 'lexical', level: 'local', workarea: null, distance: null },
      results: a.include_own_pending === false ? [] : shown,
      paths: [],
      steering: [],
      steering_omitted: 0,
    };
  }

  private async status(a: Args) {
    const id = a.artifact_id as string;
    const local = id.startsWith('local:') ? this.store.claim(id) : this.store.claimByGateId(id);
    if (id.startsWith('local:') && local === undefined) throw new GateError(ErrorCode.invalidParams, `unknown artifact: ${id.slice(0, 16)}`);
    if (local?.gate_id == null) await this.forwarder.forward();
    const current = local ? this.store.claim(local.local_id)! : undefined;
    const gateId = current?.gate_id ?? (id.startsWith('sha256:') ? id : null);
    if (gateId !== null) {
      const s = await this.onGate('gv.status', { artifact_id: gateId });
      if (s !== null) return current ? { ...s, local_id: current.local_id } : s;
      if (!current) throw lifecycle('no gate is reachable to answer for this id', 'no_gate');
    }
    const c = current!;
    return {
      artifact_id: handleOf(c),
      state: c.gate_state ?? localState(c),
      reason: c.refusal !== null ? 'refused' : c.gate_id ? 'no_gate' : 'not_forwarded',
      held: true,
      ratified: false,
      provisional: false,
      space: c.space,
      workarea: c.workarea,
      findings_count: 0,
      since_ts: c.created_ts,
      local_id: c.local_id,
    };
  }

  private localPending(c: LocalClaim) {
    return {
      artifact_id: c.local_id,
      state: 'LOCAL',
      kind: kindOf(c),
      content_type: c.content_type,
      trust_class: null,
      space: c.space,
      workarea: c.workarea,
      findings_count: 0,
      findings: 0,
      ingest_ts: c.created_ts,
      age_ms: Math.max(0, this.now() - c.created_ts),
      self_authored: true,
    };
  }

  private async pending(a: Args) {
    const limit = a.limit ?? 100;
    const g = await this.onGate('gv.pending', { limit });
    const local = this.store.unforwarded().map((c) => this.localPending(c));
    const fromGate = (g?.['pending'] as Record<string, unknown>[] | undefined) ?? [];
    const all = [...fromGate, ...local];
    return { pending: all.slice(0, limit), truncated: Boolean(g?.['truncated']) || all.length > limit };
  }

  private localRow(c: LocalClaim) {
    return {
      artifact_id: handleOf(c),
      kind: kindOf(c),
      content_type: c.content_type,
      state: c.gate_state ?? localState(c),
      producer: parse(c.producer),
      ts: c.created_ts,
      state_ts: c.forwarded_ts ?? c.created_ts,
    };
  }

  private async workarea(a: Args) {
    const space = a.space ?? 'main';
    const mine = this.store.claimsIn(space, a.workarea);
    let g: Record<string, unknown> | null = null;
    try {
      g = await this.onGate('gv.workarea', { workarea: a.workarea, space });
    } catch (error) {
      // The gate never saw this area (its claims were refused or never forwarded): the local answer stands.
      if (!(error instanceof GateClientError) || mine.length === 0) throw error;
    }
    if (g !== null) {
      const unforwarded = mine.filter((c) => c.forwarded_ts === null).map((c) => this.localRow(c));
      return { ...g, own: [...unforwarded, ...(g['own'] as unknown[])] };
    }
    if (mine.length === 0) throw invalidParams(`you never wrote into work area ${a.workarea} in space ${space}`, { field: 'workarea' });
    const counts: Record<string, number> = {};
    for (const c of mine) counts[c.gate_state ?? localState(c)] = (counts[c.gate_state ?? localState(c)] ?? 0) + 1;
    return {
      space,
      workarea: a.workarea,
      identity: 'local',
      state: this.store.completion(space, a.workarea) ? 'complete' : 'open',
      own: mine.map((c) => this.localRow(c)),
      promoted: [],
      counts,
      truncated: false,
    };
  }

  private async complete(a: Args) {
    const space = a.space ?? 'main';
    if (this.store.claimsIn(space, a.workarea).length === 0) {
      const g = await this.onGate('gv.complete', { workarea: a.workarea, space, ...(a.note ? { note: a.note } : {}) });
      if (g !== null) return g;
      throw invalidParams(`you never wrote into work area ${a.workarea} in space ${space}`, { field: 'workarea' });
    }
    const changed = this.store.addCompletion({ space, workarea: a.workarea, note: a.note ?? null });
    const up = await this.forwarder.forward();
    return { space, name: a.workarea, identity: up ? 'gate' : 'local', state: 'complete' as const, changed };
  }

  private async relate(a: Args) {
    const space = a.space ?? 'main';
    if (a.workarea === a.target) throw invalidParams('a work area is not related to itself', { field: 'target' });
    if (this.store.claimsIn(space, a.workarea).length === 0) {
      const g = await this.onGate('gv.workarea_relate', { workarea: a.workarea, kind: a.kind, target: a.target, space, ...(a.note ? { note: a.note } : {}) });
      if (g !== null) return g;
      throw invalidParams(`you never wrote into work area ${a.workarea} in space ${space}`, { field: 'workarea' });
    }
    const changed = this.store.addRelation({ space, workarea: a.workarea, kind: a.kind, target: a.target, note: a.note ?? null });
    await this.forwarder.forward();
    const standing = this.store.relations(space).find((r) => r.workarea === a.workarea && r.kind === a.kind && r.target === a.target)!;
    if (standing.state === 'refused') {
      throw invalidParams(`relating ${a.workarea} to ${a.target} would close a cycle of declared relations`, { field: 'target', reason: 'cycle' });
    }
    return { space, workarea: a.workarea, kind: a.kind, target: a.target, changed };
  }

  private async lineage(a: Args) {
    const space = a.space ?? 'main';
    const g = await this.onGate('gv.lineage', { space, ...(a.workarea ? { workarea: a.workarea } : {}) });
    if (g !== null) return g;
    const areas = this.store.areas(space).filter((x) => a.workarea === undefined || x.workarea === a.workarea || x.workarea.startsWith(`${a.workarea}/`));
    return {
      space,
      workarea: a.workarea ?? null,
      nodes: areas.map((x) => ({ name: x.workarea, implicit: false, local_rows: x.n, last_write: x.last })),
      edges: this.store
        .relations(space)
        .filter((r) => r.state !== 'refused')
        .map((r) => ({ source: r.workarea, target: r.target, provenance: 'declared' as const, kind: r.kind })),
    };
  }
}
