import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Caller } from './caller.js';
import type { Capabilities } from './capabilities.js';
import type { Visibility } from './visibility.js';

/** The access part: who may do what where (grants, open spaces) and who may see which row (C6, rule U). */
export interface AccessPart {
  readonly capabilities: Capabilities;
  readonly visibility: Visibility;
  /** A row by id when the caller may read it; otherwise the rule-U refusal, identical to a missing id. */
  readableArtifact(caller: Caller, id: string): ArtifactRow;
}
