import type { GradeBackend } from './backend.js';
import type { GradeAnswer } from './answer.js';

/** What a grader is shown of one row: the masked body and facts about it, never the raw bytes of a finding. */
export interface GradeInput {
  artifact_id: string;
  /** The scanner's masked body: every finding's span already replaced. */
  text: string;
  kind: string | null;
  content_type: string;
  trust_class: string;
  source_uri: string;
  /** Kinds and severities only (a held L1 row carries low ones at most). */
  findings: Array<{ kind: string; severity: string }>;
  /** Each derives_from parent's state, or null for an id that names no row. */
  parents: Array<string | null>;
  /** Cosine of the nearest ACTIVE row of the space, or null when the row has no vector yet. */
  nearest_promoted: number | null;
}

export interface GradeCall {
  backend: GradeBackend;
  stance: string;
  input: GradeInput;
}

export type GradeFailure = 'timeout' | 'connect' | 'http' | 'too_large' | 'malformed' | 'refused' | 'credential';

export type GradeOutcome =
  | { ok: true; answer: GradeAnswer; cost_tokens: number; model: string; ms: number }
  | { ok: false; failure: GradeFailure; detail: string; status?: number; cost_tokens: number; ms: number };

export interface BackendCheck {
  reachable: boolean;
  credential: string;
  model: string;
  effort: string | null;
  /** Whether a probe grading call came back in the structured form grading needs. */
  structured_outputs: boolean;
  /** Tokens the probe spent (0 when no grading call was made). */
  cost_tokens: number;
  words: string;
}

export type GradeTask = { type: 'grade'; calls: GradeCall[] } | { type: 'check'; backend: GradeBackend };
