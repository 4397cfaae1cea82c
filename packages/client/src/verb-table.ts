import type { ToolSignatures, VerbSignatures } from './verb-signatures.js';

/**
 * The verbs and tools, their params and answers, typed from the gate's own declarations: the
 * generated verb-signatures.ts (scripts/client-signatures.mjs prints it from the zod schemas
 * beside each verb and tool), so the package carries the types and imports none of the gate.
 */
export { VERB_ROLES, CLIENT_TOOLS, TOOL_WRITES, type VerbRole, type VerbSignatures, type ToolSignatures } from './verb-signatures.js';

/** Every verb's name. */
export type VerbName = keyof VerbSignatures;
/** What a verb's params take. */
export type VerbParams<N extends VerbName> = VerbSignatures[N]['params'];
/**
 * A union of objects read as TypeScript reads a union of object literals: each member names the
 * others' fields as absent, so `answer.key_id` reads on every answer of gv.keys (list, issue or
 * revoke) and is undefined where that kind of answer has none.
 */
export type Normalized<U, All = U> = U extends object ? U & { [K in Exclude<All extends unknown ? keyof All : never, keyof U>]?: undefined } : U;

/** What a verb answers (the JSON-RPC result). */
export type VerbAnswer<N extends VerbName> = Normalized<VerbSignatures[N]['answer']>;
/** Every client-tier tool's name. */
export type ToolName = keyof ToolSignatures;
/** What a tool's arguments take. */
export type ToolArguments<N extends ToolName> = ToolSignatures[N]['arguments'];
/** What a tool answers (its structuredContent). */
export type ToolAnswer<N extends ToolName> = Normalized<ToolSignatures[N]['answer']>;

/**
 * The deciding verbs: each records a decision on a row or settles its fate (promote, reject,
 * demote, a send-back for evidence, a person's signature, a reopening, a replacement group's
 * activation, the deployment's promotions in an auto space). docs/protocol.md#client-transport-rules, rule 3: no client scope sends them, whatever the key
 * could do; a person decides in the console or with `gate sign`, a reviewer program through
 * ReviewerClient, which is named for that so no decision is sent by accident.
 */
export const DECIDING_VERBS: ReadonlySet<VerbName> = new Set<VerbName>([
  'gv.promote',
  'gv.reject',
  'gv.demote',
  'gv.request_evidence',
  'gv.sign',
  'gv.reopen',
  'gv.replacement_activate',
  'gv.settle_pending',
]);
