import { derivesFromOf, type ArtifactRow } from './artifact-reads.js';

/** Event types that are decisions about a row (who let it in, kept it out, moved it). */
export const DECISIONS = new Set(['scan', 'record', 'promote', 'reject', 'demote', 'verdict', 'manual-sign', 'disposition',
  'ratify', 'expire', 'cancel', 'reopen', 'refuse', 'countersign']);

/** A row's envelope (docs/protocol.md#organization-doors): what was taken in, from whom, here. */
export function envelopeOf(row: ArtifactRow, deploymentId: string) {
  return {
    content_hash: row.content_hash,
    content_type: row.content_type,
    trust_class: row.trust_class,
    source_uri: row.source_uri,
    writer_identity: row.writer_identity,
    deployment_id: deploymentId,
    ingest_ts: row.ts,
    size_bytes: row.size_bytes,
    derives_from: derivesFromOf(row),
  };
}
