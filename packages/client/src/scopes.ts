import { GateClientError } from './client-error.js';
import { DECIDING_VERBS, type VerbName, type VerbRole } from './verb-table.js';

/**
 * Client scopes (docs/protocol.md#client-transport-rules, rule 3): read (the default; every write disabled), knowledge (an
 * agent's verbs: propose, annotate, weight), curation (the operator's). Deciding verbs are in
 * no scope: only a client made to decide (ReviewerClient) sends them. The gate refuses the
 * same calls again by role; the client refuses them first, before any I/O.
 */
export type ClientScope = 'read' | 'knowledge' | 'curation';

const ALLOWED: Record<ClientScope, ReadonlySet<VerbRole>> = {
  read: new Set(['reader']),
  knowledge: new Set(['reader', 'agent']),
  curation: new Set(['reader', 'agent', 'reviewer', 'admin', 'runner']),
};

export function requireScope(scope: ClientScope, name: string, role: VerbRole, decides = false): void {
  if (!decides && DECIDING_VERBS.has(name as VerbName)) {
    throw new GateClientError('scope', `${name} is a deciding verb, which no client scope sends: a person decides in the console or with gate sign, a reviewer program with ReviewerClient`);
  }
  if (!ALLOWED[scope].has(role)) {
    const needed = role === 'agent' ? 'knowledge' : 'curation';
    throw new GateClientError('scope', `${name} needs client scope ${needed}; this client has scope ${scope}: make it with { scope: '${needed}' }`);
  }
}
