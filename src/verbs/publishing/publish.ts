import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { isNameSegment } from '../../domain/names.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { MerkleList } from '../../forms/merkle-list.js';
import { COLLECTION_FORMAT, rowLeaf, type CollectionHeader, type CollectionRow } from '@gate/client/forms';
import { checkpointAt } from '../reading/log-proofs.js';

/** Rows one publish may hold: the snapshot is cut and hashed inside one journal write, on the main thread. */
export const PUBLISH_MAX_ROWS = 100_000;

export const collectionNameParam = z.string().refine(isNameSegment, 'a collection name is one name segment: 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit');

/**
 * gv.publish (admin): cuts a signed, versioned snapshot of a space's ACTIVE rows (ids,
 * content hashes, sizes, classes) at the journal's current position, with the checkpoint
 * of the journal there, and journals `collection-published`. The rows go to the content
 * store (a large list has no place in an event); the header, its id and the rows' blob hash
 * to the journal. Versions of one name count up from 1.
 */
const publishAnswer = z.object({
  collection_id: z.string(),
  space: z.string(),
  name: z.string(),
  version: z.number().int(),
  rows: z.number().int(),
  journal_size: z.number().int(),
  rows_root: z.string(),
  event_id: z.string(),
});

export const publishVerb = defineVerb({
  name: 'gv.publish',
  role: 'admin',
  summary: "Publish a signed, versioned snapshot of a space's ACTIVE rows (ids and content hashes) at the journal's current checkpoint, verifiable offline with the deployment id.",
  params: z.strictObject({
    space: spaceParam,
    name: collectionNameParam.optional().describe('the collection name (default: the space name)'),
  }),
  answer: publishAnswer,
  uses: ['store', 'deployment', 'clock'],
  handler({ caller, store, deployment, clock }, p) {
    requireSpace({ store }, p.space);
    const name = p.name ?? p.space;
    return store.writer.write(() => {
      const count = store.artifacts.activeCount(p.space);
      if (count > PUBLISH_MAX_ROWS) throw invalidParams(`gv.publish: space ${p.space} has ${count} ACTIVE rows; a collection holds at most ${PUBLISH_MAX_ROWS}`, { field: 'space' });
      const rows: CollectionRow[] = store.artifacts.activeSnapshot(p.space).map((r) => ({ ...r, provisional: r.provisional === 1 }));
      // Inside the write: the position, its checkpoint and the rows are one state of the journal.
      const size = store.journal.chainHead.seq;
      const header: CollectionHeader = {
        format: COLLECTION_FORMAT,
        deployment_id: deployment.deploymentId,
        space: p.space,
        name,
        version: store.collections.nextVersion(p.space, name),
        published_at: clock.now(),
        journal_size: size,
        checkpoint: checkpointAt({ store, deployment }, size),
        rows: rows.length,
        rows_root: new MerkleList(rows.map(rowLeaf)).root().toString('base64'),
      };
      const rowsBytes = Buffer.from(canonicalJson(rows));
      const rowsBlob = `sha256:${sha256Hex(rowsBytes)}`;
      store.journal.putBlob(rowsBlob, rowsBytes);
      const collectionId = `sha256:${sha256Hex(canonicalJson(header))}`;
      const event = store.journal.append('collection-published', caller.identity, { space: p.space, collection_id: collectionId, header, rows_blob: rowsBlob });
      return {
        collection_id: collectionId,
        space: p.space,
        name,
        version: header.version,
        rows: rows.length,
        journal_size: size,
        rows_root: header.rows_root,
        event_id: event.event_id,
      };
    });
  },
});
