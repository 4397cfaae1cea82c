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

export function defineOrgVerb<P extends z.ZodType>(verb: OrgVerb<P>): OrgVerb<P> {
  return verb;
}
