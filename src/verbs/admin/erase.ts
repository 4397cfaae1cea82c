import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import { eraseRow, removeObjects, type Erasure } from '../../erasure/erase-row.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { House } from '../house.js';
import { retractAfterErasure } from '../../submission/org-sends.js';
import { SUBMISSION_STATES } from '../../projections/submission-reads.js';

/** Other live rows holding the same bytes, named in the answer (the operator may erase them too). */
const ROWS_NAMED = 20;
const TRUNCATE_TRIES = 5;
const TRUNCATE_WAIT_MS = 50;

/** The WAL emptied after the commit; a reader holding it is waited for a few times, then the answer says so. */
async function truncateWal(house: Pick<House, 'store'>): Promise<boolean> {
  for (let i = 0; i < TRUNCATE_TRIES; i++) {
    if (house.store.truncateWal()) return true;
    await sleep(TRUNCATE_WAIT_MS);
  }
  return false;
}

function eventIdAt(house: Pick<House, 'store'>, seq: number): string {
  return house.store.journalReads.eventIdAt(seq);
}

const eraseAnswer = z.union([
  z.object({
    artifact_id: z.string(),
    erased: z.boolean(),
    changed: z.boolean(),
    event_id: z.string(),
    content_hash: z.string(),
  }),
  z.object({
    attachments_removed: z.array(z.string()),
    bytes_kept_for: z.array(z.string()),
    vector_dropped: z.boolean(),
    secure_delete: z.boolean(),
    wal_truncated: z.boolean(),
    organization: z
      .object({ state: z.enum(SUBMISSION_STATES) })
      .nullable()
      .describe("the row was submitted: its submission's state after the retraction was sent (retracted), or while it waits for the next drain (retract); null: never submitted"),
    masked_removed: z.boolean().optional(),
    artifact_id: z.string(),
    erased: z.boolean(),
    changed: z.boolean(),
    event_id: z.string(),
    content_hash: z.string(),
    bytes_removed: z.boolean(),
  }),
]);

export const eraseVerb = defineVerb({
  name: 'gv.erase',
  role: 'admin',
  summary:
    "Erase a row's content for good: its bytes, masked copy, index entries, vector and attachments leave the gate; the row stays as its metadata, and content_erased is journaled with the content hash so the chain still verifies.",
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().min(1).max(500), proof: proofParam.optional() }),
  answer: eraseAnswer,
  uses: ['store', 'access', 'auth', 'pipeline', 'review', 'deployment', 'config', 'log'],
  async handler(ctx, p) {
    const { caller, store, access, pipeline, config, log, review, deployment } = ctx;
    access.readableArtifact(caller, p.artifact_id);
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.erase');
    const done = await store.writer.write((): { row: ArtifactRow; erasure: Erasure | null } => {
      const row = access.readableArtifact(caller, p.artifact_id);
      // Erasing what is erased changes nothing and journals nothing.
      if (row.erased_seq !== null) return { row, erasure: null };
      return { row, erasure: eraseRow({ store, pipeline }, row, caller.identity, p.reason, provenBy(operatorKey)) };
    });
    const { row, erasure } = done;
    if (erasure === null) {
      return { artifact_id: row.artifact_id, erased: true, changed: false, event_id: eventIdAt({ store }, row.erased_seq!), content_hash: row.content_hash };
    }
    if (erasure.vector_dropped !== null) pipeline.embed.dropped([erasure.vector_dropped]);
    const attachmentsRemoved = removeObjects({ pipeline }, erasure.objects_removed);
    const walTruncated = await truncateWal({ store });
    // A row the organization was sent: its copy there is erased too (docs/organization.md "Erasure at a member").
    const organization = await retractAfterErasure({ store, access, review, deployment, config }, row.artifact_id, caller.identity);
    log.info('gv.erase: a row\'s content left the gate', { by: caller.identity, artifact_id: row.artifact_id, wal_truncated: walTruncated, organization: organization?.state });
    return {
      artifact_id: row.artifact_id,
      erased: true,
      changed: true,
      event_id: erasure.event_id,
      content_hash: row.content_hash,
      bytes_removed: erasure.bytes_removed,
      ...(erasure.masked_removed === null ? {} : { masked_removed: erasure.masked_removed }),
      attachments_removed: attachmentsRemoved,
      bytes_kept_for: erasure.bytes_removed ? [] : store.contentReferences.rowsWithBytes(row.content_hash, ROWS_NAMED),
      vector_dropped: erasure.vector_dropped !== null,
      secure_delete: config.journal.secure_delete,
      wal_truncated: walTruncated,
      organization,
    };
  },
});
