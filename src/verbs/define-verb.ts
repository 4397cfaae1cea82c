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
  const { store, access, auth, recall, pipeline, review, reads, crews, deployment, config, clock, log } = house;
  return { caller, store, access, auth, recall, pipeline, review, reads, crews, deployment, config, clock, log };
}

/** A verb is a declaration: name, least role, strict params, its answer's schema, handler. */
export interface Verb<P extends z.ZodType = z.ZodType, A extends z.ZodType = z.ZodType> {
  name: string;
  /** The least ordered role, or 'runner' for the runner verbs, which only runner keys may call. */
  role: OrderedRole | 'runner';
  summary: string;
  params: P;
  /**
   * What the verb answers, declared beside what it takes: gv.describe's documents, the OpenAPI
   * document, the tool catalog's output schemas and the client package's answer types are made
   * from it (docs/architecture.md, "A verb's answer"). Objects are open (`z.object`), so a
   * client keeps working when a later gate sends more; the dispatcher holds every answer to it,
   * undeclared fields included, when GATE_CHECK_ANSWERS is set, as the tests set it.
   */
  answer: A;
  /** Fields refused by name with a reason of their own (beyond the identity fields every verb refuses). */
  refused?: Record<string, string>;
  /**
   * Top-level fields whose `null` is a value the protocol lists for this verb (clear a token,
   * release a space, the default provider); everywhere else `null` is refused by name (docs/protocol.md#rules-every-verb-keeps).
   */
  nullable?: readonly string[];
  /** Surfaces allowed to call it; absent means every surface. */
  surfaces?: ReadonlyArray<Caller['surface']>;
  /**
   * A write door (docs/protocol.md#gvban): the dispatcher refuses a banned writer, or any source the
   * write names (the row's source_uri, each attachment's) under a banned prefix, -32009
   * before the handler runs, so before any scan or storage.
   */
  door?: { sources?: (params: z.output<P>) => NamedSource[] };
  handler: (ctx: VerbContext, params: z.output<P>) => unknown;
}

/**
 * A verb as declared, its name in its type, its handler held to its answer's schema by the
 * compiler: what a handler returns must be what `answer` declares (the console and the client
 * package read each verb's answer type from the schema, `VerbAnswer` in src/verbs/verb-types.ts).
 */
export type DeclaredVerb<N extends string, P extends z.ZodType, A extends z.ZodType> = Verb<P, A> & {
  name: N;
  handler: (ctx: VerbContext, params: z.output<P>) => z.input<A> | Promise<z.input<A>>;
};

export function defineVerb<const N extends string, P extends z.ZodType, A extends z.ZodType>(verb: DeclaredVerb<N, P, A>): DeclaredVerb<N, P, A> {
  return verb;
}
