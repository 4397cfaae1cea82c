import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { MerkleList } from '../../forms/merkle-list.js';
import { COLLECTION_FORMAT, collectionSigningText, rowLeaf } from '@gate/client/forms';
import { answerProofs, checkpointSchema, keyRotationsSchema } from '../reading/log-proofs.js';
import { collectionNameParam } from './publish.js';

const PAGE_MAX = 1000;

/**
 * gv.collection (reader with read on the space): a published collection, everything needed
 * to check it offline with the deployment id alone: its signed header (which carries the
 * checkpoint it was cut at), the deployment's signature over it, its publish event verbatim
 * (canonical body and signature) with that event's inclusion proof in the journal's current
 * checkpoint, and either a page of its rows or, for `artifact_id`, that row with its proof of
 * membership in the rows' tree.
 */
/** A published collection's row: a leaf of the collection's own tree (gate.collection/1). */
const collectionRowAnswer = z.object({
  artifact_id: z.string(),
  content_hash: z.string(),
  size_bytes: z.number().int(),
  content_type: z.string(),
  trust_class: z.string(),
  provisional: z.boolean().describe('not yet countersigned by a second authority when published'),
});

const proof = z.object({ leaf_index: z.number().int(), hashes: z.array(z.string()) });

const collectionAnswer = z.object({
  collection_id: z.string(),
  collection: z
    .object({
      format: z.literal(COLLECTION_FORMAT),
      deployment_id: z.string(),
      space: z.string(),
      name: z.string(),
      version: z.number().int(),
      published_at: z.number().int(),
      journal_size: z.number().int().describe('the journal position the snapshot was cut at: the events before the publish'),
      checkpoint: checkpointSchema.describe('the signed checkpoint of the journal at journal_size'),
      rows: z.number().int(),
      rows_root: z.string().describe("base64 RFC 9162 root over the rows' leaves"),
    })
    .describe('the header the deployment signs'),
  signature: z.string(),
  publish: z.object({ seq: z.number().int(), event_id: z.string(), body: z.string(), sig: z.string(), inclusion: proof }),
  checkpoint: checkpointSchema,
  key_rotations: keyRotationsSchema,
  row: collectionRowAnswer.nullable().optional().describe('asked for one row: it, or null when the collection does not hold it'),
  row_proof: proof.optional().describe("the row's leaf in the collection's tree"),
  rows: z.array(collectionRowAnswer).optional().describe('a page of rows, when no row was asked for'),
  offset: z.number().int().optional(),
  next_offset: z.number().int().nullable().optional(),
});

export const collectionVerb = defineVerb({
  name: 'gv.collection',
  role: 'reader',
  summary: 'A published collection with its signature, its publish event proven in the journal, and a page of its rows or one row with its membership proof.',
  params: z.strictObject({
    space: spaceParam,
    name: collectionNameParam.optional().describe('the collection name (default: the space name)'),
    version: z.number().int().min(1).optional().describe('default: the newest'),
    offset: z.number().int().min(0).optional().describe('first row of the page (default 0)'),
    limit: z.number().int().min(1).max(PAGE_MAX).optional().describe(`rows in the page (default and ceiling ${PAGE_MAX})`),
    artifact_id: artifactIdParam.optional().describe('answer this row and its membership proof instead of a page'),
  }),
  answer: collectionAnswer,
  uses: ['store', 'access', 'deployment'],
  handler({ caller, store, access, deployment }, p) {
    requireSpace({ store }, p.space);
    if (!access.visibility.seesEverything(caller)) access.capabilities.require(caller, p.space, 'read');
    if (p.artifact_id !== undefined && (p.offset !== undefined || p.limit !== undefined)) {
      throw invalidParams('gv.collection: artifact_id answers one row; offset and limit page the rows: give one or the other', { field: 'artifact_id' });
    }
    const name = p.name ?? p.space;
    const published = store.collections.find(p.space, name, p.version);
    if (published === null) {
      const what = p.version === undefined ? `collection ${name}` : `version ${p.version} of collection ${name}`;
      throw invalidParams(`gv.collection: no ${what} is published in space ${p.space}`, { field: p.version === undefined ? 'name' : 'version' });
    }
    const rows = store.collections.rows(published);
    const event = store.journalReads.signedAt(published.seq);
    const proofs = answerProofs({ store, deployment });
    const common = {
      collection_id: published.collection_id,
      collection: published.header,
      signature: deployment.key.sign(collectionSigningText(published.header)),
      publish: { seq: published.seq, event_id: event.event_id, body: event.body, sig: event.sig, inclusion: proofs.inclusion(published.seq) },
      checkpoint: proofs.checkpoint,
      ...proofs.rotations,
    };
    if (p.artifact_id !== undefined) {
      const index = rows.findIndex((r) => r.artifact_id === p.artifact_id);
      if (index < 0) return { ...common, row: null };
      const proof = new MerkleList(rows.map(rowLeaf)).inclusion(index);
      return { ...common, row: rows[index], row_proof: { leaf_index: index, hashes: proof.map((h) => h.toString('base64')) } };
    }
    const offset = p.offset ?? 0;
    if (offset > rows.length) throw invalidParams(`gv.collection: offset ${offset} is past the collection's ${rows.length} rows`, { field: 'offset' });
    const end = Math.min(rows.length, offset + (p.limit ?? PAGE_MAX));
    return { ...common, rows: rows.slice(offset, end), offset, next_offset: end < rows.length ? end : null };
  },
});
