import type { z } from 'zod';
import type { NamedSource } from '../access/bans.js';
import type { Caller } from '../access/caller.js';
import type { House } from './house.js';
import type { OrderedRole } from '../domain/roles.js';

/**
 * What a verb is handed: who calls, and the parts of the house. A handler names the parts it
 * enters in its parameter (`handler({ caller, store, access }, p)`), so its signature says where it goes.
 */
export interface VerbContext extends House {
  readonly caller: Caller;
}

/** The context a handler is handed: the caller and each part, by name (never the root that holds them). */
export function verbContext(house: House, caller: Caller): VerbContext {
  const { store, access, auth, recall, pipeline, review, crews, deployment, config, clock, log } = house;
  return { caller, store, access, auth, recall, pipeline, review, crews, deployment, config, clock, log };
}

/** A verb is a declaration: name, least role, strict params, handler (DESIGN rule 3). */
export interface Verb<P extends z.ZodType = z.ZodType> {
  name: string;
  /** The least ordered role, or 'runner' for the runner verbs, which only runner keys may call. */
  role: OrderedRole | 'runner';
  summary: string;
  params: P;
  /** Fields refused by name with a reason of their own (beyond the identity fields every verb refuses). */
  refused?: Record<string, string>;
  /**
   * Top-level fields whose `null` is a value the spec lists for this verb (clear a token,
   * release a space, the default provider); everywhere else `null` is refused by name (C3).
   */
  nullable?: readonly string[];
  /** Surfaces allowed to call it; absent means every surface. */
  surfaces?: ReadonlyArray<Caller['surface']>;
  /**
   * A write door (spec 2 gv.ban): the dispatcher refuses a banned writer, or any source the
   * write names (the row's source_uri, each attachment's) under a banned prefix, -32009
   * before the handler runs, so before any scan or storage.
   */
  door?: { sources?: (params: z.output<P>) => NamedSource[] };
  handler: (ctx: VerbContext, params: z.output<P>) => unknown;
}

/**
 * A verb as declared, its name and its handler's answer kept in its type: the console reads
 * each verb's params and answer from here (`VerbAnswer`, src/verbs/verb-types.ts), so what a
 * handler returns and what the page expects are one declaration.
 */
export type DeclaredVerb<N extends string, P extends z.ZodType, R> = Verb<P> & { name: N; handler: (ctx: VerbContext, params: z.output<P>) => R };

export function defineVerb<const N extends string, P extends z.ZodType, R>(verb: DeclaredVerb<N, P, R>): DeclaredVerb<N, P, R> {
  return verb;
}
