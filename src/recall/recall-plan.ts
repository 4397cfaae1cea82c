import type { Caller } from '../access/caller.js';
import { invalidParams } from '../gate-error.js';
import { requireSpace } from '../store/require-space.js';
import { placesAbove } from './steering.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';

export const RECALL_SCOPES = ['closest', 'workarea', 'space', 'all'] as const;
export type RecallScope = (typeof RECALL_SCOPES)[number] | 'spaces';

/** One place a recall may be answered from; closest tries them in order until one has hits. */
export interface RecallLevel {
  workarea: string | null;
  distance: number | null;
}

export interface RecallPlan {
  scope: RecallScope;
  spaces: string[];
  /** The space named by the answer (null under all and spaces). */
  space: string | null;
  workarea: string | null;
  levels: RecallLevel[];
}

export interface ScopeParams {
  scope?: string;
  workarea?: string;
  space?: string;
  spaces?: string[];
  producer?: unknown;
  steering_k?: number;
}

function refuseUnder(scope: string, p: ScopeParams, fields: (keyof ScopeParams)[]): void {
  for (const field of fields) {
    if (p[field] !== undefined) throw invalidParams(`${field} is refused under scope ${scope}`, { field });
  }
}

/**
 * A recall reads what the one visibility function lets the caller read: from reviewer up
 * every row of every space (so a reviewer searches the spaces they review without a read
 * grant), below it the spaces the caller holds read on.
 */
function requireRead(house: { readonly access: AccessPart }, caller: Caller, space: string): void {
  if (!house.access.visibility.seesEverything(caller)) house.access.capabilities.require(caller, space, 'read');
}

/**
 * Which spaces and work areas a recall searches, with every scope refusal of gv.recall
 * (docs/protocol.md#gvrecall). closest starts at the work area and walks up one segment at a time; the
 * space itself is its last level (distance = every segment walked).
 */
export function planRecall(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, p: ScopeParams): RecallPlan {
  if (p.spaces !== undefined) {
    if (p.scope !== undefined) throw invalidParams('spaces is refused beside a scope', { field: 'spaces' });
    if (p.space !== undefined) throw invalidParams('spaces is refused beside space', { field: 'spaces' });
    refuseUnder('spaces', p, ['workarea', 'producer', 'steering_k']);
    const spaces = [...new Set(p.spaces)].map((s) => requireSpace(house, s));
    for (const s of spaces) requireRead(house, caller, s);
    return { scope: 'spaces', spaces, space: null, workarea: null, levels: [{ workarea: null, distance: null }] };
  }
  const scope = p.scope ?? (p.workarea !== undefined ? 'closest' : 'space');
  if (!(RECALL_SCOPES as readonly string[]).includes(scope)) {
    throw invalidParams(`unknown scope ${JSON.stringify(scope)}; the scopes are ${RECALL_SCOPES.join(', ')}`, { field: 'scope' });
  }
  if (scope === 'all') {
    refuseUnder(scope, p, ['space', 'workarea', 'producer', 'steering_k']);
    const spaces = house.store.spaceNames().filter((s) => house.access.visibility.seesEverything(caller) || house.access.capabilities.has(caller, s, 'read'));
    return { scope, spaces, space: null, workarea: null, levels: [{ workarea: null, distance: null }] };
  }
  const space = requireSpace(house, p.space ?? 'main');
  if (scope === 'space') {
    refuseUnder(scope, p, ['workarea', 'producer', 'steering_k']);
    requireRead(house, caller, space);
    return { scope, spaces: [space], space, workarea: null, levels: [{ workarea: null, distance: null }] };
  }
  if (p.workarea === undefined) throw invalidParams(`scope ${scope} needs a workarea`, { field: 'workarea' });
  requireRead(house, caller, space);
  const workarea = p.workarea;
  if (scope === 'workarea') return { scope, spaces: [space], space, workarea, levels: [{ workarea, distance: 0 }] };
  const places = placesAbove(workarea);
  return {
    scope: 'closest',
    spaces: [space],
    space,
    workarea,
    levels: [...places.map((w, distance) => ({ workarea: w, distance })), { workarea: null, distance: places.length }],
  };
}
