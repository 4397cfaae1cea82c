export const ARTIFACT_STATES = [
  'L0_RAW',
  'L1_SCANNED',
  'L1B_FLAGGED',
  'RECORDED',
  'L2_SCORED',
  'L3_RATIFIED',
  'NEEDS_EVIDENCE',
  'ACTIVE',
  'SUPERSEDED',
  'DEMOTED',
  'REJECTED',
  'ARCHIVED',
] as const;
export type ArtifactState = (typeof ARTIFACT_STATES)[number];

/** Promoted rows are the ones served to every reader (docs/protocol.md#states). */
export const PROMOTED_STATES: ReadonlySet<ArtifactState> = new Set(['ACTIVE', 'SUPERSEDED']);

/** A row waiting in L1 or L1B is "held"; L0 is the instant before its scan lands. */
export const HELD_STATES: ReadonlySet<ArtifactState> = new Set(['L0_RAW', 'L1_SCANNED', 'L1B_FLAGGED']);

/** In quarantine: not yet admitted and not yet finally decided. */
export const QUARANTINE_STATES: ReadonlySet<ArtifactState> = new Set([
  'L0_RAW',
  'L1_SCANNED',
  'L1B_FLAGGED',
  'L2_SCORED',
  'L3_RATIFIED',
  'NEEDS_EVIDENCE',
]);

/** States from which a reviewer's promote may take a row to ACTIVE; L1B needs a disposition first. */
export const PROMOTABLE_STATES: ReadonlySet<ArtifactState> = new Set(['L1_SCANNED', 'L2_SCORED', 'L3_RATIFIED']);

export const isPromoted = (state: string) => PROMOTED_STATES.has(state as ArtifactState);
export const isHeld = (state: string) => HELD_STATES.has(state as ArtifactState);

/** The decision a `ratify` event records when a reviewer sends a row back to its writer for evidence (it enters NEEDS_EVIDENCE). */
export const NEEDS_EVIDENCE_DECISION = 'needs_evidence';

/**
 * The reason a scan records when it takes a promoted row from its readers: a later scanner
 * found in it, anywhere an agent reads, a finding of high severity or more. The row waits in
 * L1B_FLAGGED for a person's disposition, and no expiry decides it meanwhile (docs/records.md).
 */
export const HELD_ON_RESCAN = 'rescan_finding';
