import { type GateClient, GateClientError } from '@gate/client';
import type { LocalStore } from './local-store.js';
import { isRecordedClass } from '../domain/kinds.js';

/** Kinds that say nothing about the claim: the gate is absent, busy or will not take this client now. */
const GATE_UNAVAILABLE = new Set(['transport', 'timeout', 'busy', 'auth', 'scope', 'invalid_response', 'remote_error', 'config']);

export const gateUnavailable = (error: unknown) => error instanceof GateClientError && GATE_UNAVAILABLE.has(error.kind);

/**
 * Hands what the plugin holds to a gate, claims first (so relations and completions find
 * the areas written), each claim exactly once: it is marked forwarded in the store as soon
 * as the gate answered. Should the process die between the answer and the mark, the next
 * pass sends the same bytes again and the gate's duplicate rule answers the same id, so
 * the gate still holds one row. One pass at a time.
 */
export class Forwarder {
  private running: Promise<boolean> = Promise.resolve(true);

  constructor(
    private readonly store: LocalStore,
    private readonly gate: GateClient | null,
    private readonly now: () => number,
  ) {}

  /** Runs a pass after any pass in progress; resolves whether a gate answered. */
  forward(): Promise<boolean> {
    this.running = this.running.then(() => this.pass());
    return this.running;
  }

  private async pass(): Promise<boolean> {
    const gate = this.gate;
    if (gate === null) return false;
    try {
      for (const c of this.store.unforwarded()) {
        try {
          const r = await gate.call('gv.ingest', {
            content: c.content,
            ...(isRecordedClass(c.content_type) ? { content_type: c.content_type } : { kind: c.content_type as 'memory' }),
            source_uri: c.source_uri,
            workarea: c.workarea,
            space: c.space,
            ...(c.producer ? { producer: JSON.parse(c.producer) } : {}),
            ...(c.derives_from ? { derives_from: JSON.parse(c.derives_from) } : {}),
            ...(c.addressed_to ? { addressed_to: JSON.parse(c.addressed_to) } : {}),
          });
          this.store.markForwarded(c.local_id, this.now(), { gate_id: String(r['artifact_id']), gate_state: String(r['state']) });
        } catch (error) {
          if (gateUnavailable(error)) throw error;
          if (!(error instanceof GateClientError)) throw error;
          this.store.markForwarded(c.local_id, this.now(), { refusal: error.message, code: error.code ?? null });
        }
      }
      for (const r of this.store.relations().filter((x) => x.state === 'pending')) {
        try {
          await gate.call('gv.workarea_relate', { space: r.space, workarea: r.workarea, kind: r.kind as 'opened_by', target: r.target, ...(r.note ? { note: r.note } : {}) });
          this.store.setRelationState(r, 'forwarded');
        } catch (error) {
          if (gateUnavailable(error) || !(error instanceof GateClientError)) throw error;
          // A cycle never resolves; an area not yet written (the target) may be written later.
          if (error.data?.['reason'] === 'cycle') this.store.setRelationState(r, 'refused');
        }
      }
      for (const c of this.store.completions().filter((x) => x.state === 'pending')) {
        try {
          await gate.call('gv.complete', { space: c.space, workarea: c.workarea, ...(c.note ? { note: c.note } : {}) });
          this.store.setCompletionState(c, 'forwarded');
        } catch (error) {
          if (gateUnavailable(error) || !(error instanceof GateClientError)) throw error;
          this.store.setCompletionState(c, 'refused');
        }
      }
      return true;
    } catch (error) {
      if (gateUnavailable(error)) return false;
      throw error;
    }
  }
}
