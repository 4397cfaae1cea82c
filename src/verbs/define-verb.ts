import type { z } from 'zod';
import type { NamedSource } from '../access/bans.js';
import type { Caller } from '../access/caller.js';
import type { House } from './house.js';
import type { OrderedRole } from '../domain/roles.js';

/** A part of the house by its name: what a verb's `uses` lists. */
export type PartName = keyof House;

/**
 * What a handler is handed: who calls, and the parts of the house its verb declares in `uses`,
 * nothing else (docs/architecture.md, "What each verb uses"). A handler names the parts it
 * enters in its parameter (`handler({ caller, store, access }, p)`), so its signature says where
 * it goes; a helper takes `VerbContext<'store' | 'access'>`, the few it reads. Without an
 * argument it names every part: the type the dispatcher calls any verb's handler through.
 */
export type VerbContext<U extends PartName = PartName> = { readonly caller: Caller } & Pick<House, U>;

/**
 * The context a handler is handed: the caller and the parts `uses` names, each by name (never
 * the root that holds them), so a part the verb did not declare is not there to reach.
 */
export function verbContext<U extends PartName>(house: House, caller: Caller, uses: readonly U[]): VerbContext<U> {
  const parts: Partial<Record<PartName, unknown>> = {};
  for (const part of uses) parts[part] = house[part];
  return { caller, ...parts } as VerbContext<U>;
}

/** A verb is a declaration: name, least role, strict params, its answer's schema, the parts it uses, handler. */
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
  /**
   * The parts of the house the handler enters: the dispatcher hands it these and no other
   * (verbContext), the compiler refuses a handler reaching for one not listed, and
   * test/architecture/verb-uses.test.ts one listed that the handler never reaches.
   */
  uses: readonly PartName[];
  handler: (ctx: VerbContext, params: z.output<P>) => unknown;
}

/**
 * A verb as declared, its name in its type, its handler held to its answer's schema by the
 * compiler: what a handler returns must be what `answer` declares (the console and the client
 * package read each verb's answer type from the schema, `VerbAnswer` in src/verbs/verb-types.ts),
 * and what it is handed is the parts `uses` lists.
 */
export type DeclaredVerb<N extends string, P extends z.ZodType, A extends z.ZodType, U extends PartName = PartName> = Omit<
  Verb<P, A>,
  'name' | 'uses' | 'handler'
> & {
  name: N;
  uses: readonly U[];
  handler: (ctx: VerbContext<U>, params: z.output<P>) => z.input<A> | Promise<z.input<A>>;
};

export function defineVerb<const N extends string, P extends z.ZodType, A extends z.ZodType, const U extends PartName = never>(
  verb: DeclaredVerb<N, P, A, U>,
): DeclaredVerb<N, P, A, U> {
  return verb;
}
