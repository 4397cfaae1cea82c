import { producerOf, type ArtifactRow } from './artifact-reads.js';
import { isHeld } from '../domain/states.js';
import { isClosedReason } from '../domain/rejection-reasons.js';

/** Why a row is where it is, in closed words (the review issue refines the waiting blockers). */
export function reasonOf(row: ArtifactRow): string {
  switch (row.state) {
    case 'L0_RAW':
      return 'scanning';
    case 'L1_SCANNED':
      return 'quorum';
    case 'L1B_FLAGGED':
      return 'hard_constraint';
    case 'RECORDED':
      return 'recorded';
    case 'ACTIVE':
      return row.provisional ? 'provisional' : 'promoted';
    default:
      // Only a closed word: a reason a journal holds as a person's words (as gv.reject and gv.demote once wrote them) stays there.
      return isClosedReason(row.reason) ? row.reason : row.state.toLowerCase();
  }
}

/** A row's metadata as inventory, pending and status answer it: never its content. */
export function rowMetadata(row: ArtifactRow, caller: { readonly identity: string }, now: number) {
  return {
    artifact_id: row.artifact_id,
    state: row.state,
    space: row.space,
    workarea: row.workarea,
    kind: row.kind,
    content_type: row.content_type,
    trust_class: row.trust_class,
    writer_identity: row.writer_identity,
    writer_kind: row.writer_kind,
    producer: producerOf(row),
    source_uri: row.source_uri,
    size_bytes: row.size_bytes,
    findings_count: row.findings_count,
    held: isHeld(row.state),
    provisional: row.provisional === 1,
    self_authored: row.writer_identity === caller.identity,
    ts: row.ts,
    state_ts: row.state_ts,
    age_ms: Math.max(0, now - row.ts),
  };
}
