import type { z } from 'zod';
import type { OrderedRole } from '../domain/roles.js';
import type { OrgStaffCaller } from './org-bearer.js';
import type { OrgContext } from './org-context.js';

/**
 * A verb of the organization gate's /rpc, declared as the gate's are (define-verb.ts): name,
 * least role, strict params, handler. Its handler reads the org's context (PostgreSQL, the
 * org key), not a gate.
 */
export interface OrgVerb<P extends z.ZodType = z.ZodType> {
  name: string;
  role: OrderedRole;
  summary: string;
  params: P;
  handler: (ctx: OrgContext, caller: OrgStaffCaller, params: z.output<P>) => Promise<unknown>;
}

/** A verb as declared: its literal name and its handler's own answer kept, so the org's console can type its calls (org-verb-types.ts). */
export type DeclaredOrgVerb<N extends string, P extends z.ZodType, R> = OrgVerb<P> & {
  name: N;
  handler: (ctx: OrgContext, caller: OrgStaffCaller, params: z.output<P>) => Promise<R>;
};

export function defineOrgVerb<const N extends string, P extends z.ZodType, R>(verb: DeclaredOrgVerb<N, P, R>): DeclaredOrgVerb<N, P, R> {
  return verb;
}
