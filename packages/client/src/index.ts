/** The package's main entry: the gate's TypeScript client (docs/client.md), its verbs and tools typed from the gate's declarations. */
export { GateClient, type GateClientOptions } from './gate-client.js';
export { ReviewerClient, type ReviewerClientOptions } from './reviewer-client.js';
export { ToolClient, type ToolClientOptions } from './tool-client.js';
export { OrgDoorClient, type OrgDoorClientOptions, type SubmitOutcome, type OutcomesPage } from './org-door-client.js';
export { GateClientError, type ClientErrorKind } from './client-error.js';
export { checkedUrl } from './http-exchange.js';
export { AgentAssertions, assertionKeyPair, mintAgentAssertion, ASSERTION_MAX_SECONDS, type AgentAssertionOptions } from './agent-assertion.js';
export type { Bearer } from './http-transport.js';
export type { ClientScope } from './scopes.js';
export type { Normalized, VerbName, VerbParams, VerbAnswer, VerbRole, VerbSignatures, ToolName, ToolArguments, ToolAnswer, ToolSignatures } from './verb-table.js';
export { DECIDING_VERBS, VERB_ROLES, CLIENT_TOOLS, TOOL_WRITES } from './verb-table.js';
export { OrgRpcClient, ORG_VERB_WRITES, type OrgRpcClientOptions, type OrgVerbName } from './org-rpc-client.js';
export { DEFAULT_DEADLINE_MS, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_MAX_RESPONSE_BYTES } from './transport-limits.js';
export {
  verifyCheckpoint,
  verifyInclusion,
  verifyConsistency,
  verifyEventProofs,
  verifyCheckpointAnswer,
  verifyCollection,
  ProofError,
  type VerifiedCollection,
  type CollectionHeader,
  type CollectionRow,
  type VerifiedCheckpoint,
  type InclusionProofJson,
  type ProofErrorCode,
} from './proofs.js';
