import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { PlacementChange } from '../recall/partition-codes.js';
import type { Store } from '../store/store.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';

/** What one erasure took out of the gate, as the verb reports it. */
export interface Erasure {
  event_id: string;
  /** The body left the blob store (false: another live row holds the same bytes). */
  bytes_removed: boolean;
  /** The scanner's masked copy, when it differed from the body, left the store. */
  masked_removed: boolean | null;
  /** Attachment objects (originals and served copies) no live row names any more: removed from disk after the commit. */
  objects_removed: string[];
  vector_dropped: PlacementChange | null;
}

const distinct = (hashes: Array<string | null>) => [...new Set(hashes.filter((h): h is string => h !== null))];

/**
 * Inside the writer's transaction: journals `content_erased` (the content hash kept, so
 * the chain and every signature still verify) and takes the row's bytes out of the gate:
 * the body and its masked copy from the blob store, both recall indexes (the reducer), the
 * vector, and the attachments' reviewer metadata, each only when no other live row names
 * it. The attachment objects' files are removed after the commit (removeObjects), so a
 * refused write never loses bytes a live row needs.
 */
export function eraseRow(house: { readonly store: Store; readonly pipeline: PipelinePart }, row: ArtifactRow, by: string, reason: string, proven: { operator_key?: string }): Erasure {
  const attachments = house.store.attachments.ofRow(row.artifact_id);
  // The event names the objects that go, so the uploads view can let go of them too.
  const objectsRemoved = distinct(attachments.flatMap((a) => [a.content_hash, a.served_hash]))
    .filter((h) => !house.store.contentReferences.objectNamed(h, row.artifact_id));
  const data = {
    artifact_id: row.artifact_id,
    space: row.space,
    trust_class: row.trust_class,
    content_type: row.content_type,
    content_hash: row.content_hash,
    reason,
    ...proven,
    ...(row.workarea === null ? {} : { workarea: row.workarea }),
    objects_removed: objectsRemoved,
  };
  // From here the views hold the row erased, so "named by a live row" leaves it out.
  const event = house.store.journal.append('content_erased', by, data);
  const blob = (hash: string | null) => {
    if (hash === null || house.store.contentReferences.blobNamed(hash, objectsRemoved)) return false;
    house.store.journal.dropBlob(hash);
    return true;
  };
  const bytesRemoved = blob(row.content_hash);
  // Whether or not another row keeps them, the erased words no longer wait in memory for an index.
  house.pipeline.freshBodies.forget(row.content_hash);
  const maskedRemoved = row.masked_hash === null || row.masked_hash === row.content_hash ? null : blob(row.masked_hash);
  for (const hash of distinct(attachments.map((a) => a.metadata_hash))) blob(hash);
  return {
    event_id: event.event_id,
    bytes_removed: bytesRemoved,
    masked_removed: maskedRemoved,
    objects_removed: objectsRemoved,
    vector_dropped: house.pipeline.embed.dropVector(row.rowid),
  };
}

/** Removes attachment objects from disk (after their erasure committed); answers those that were there. */
export function removeObjects(house: { readonly pipeline: PipelinePart }, hashes: readonly string[]): string[] {
  return hashes.filter((h) => house.pipeline.attachmentStore.removeObject(h));
}

/**
 * At start: objects of erased rows that no live row names and that are still on disk (the
 * process stopped between an erasure's commit and its unlinks) are removed.
 */
export function sweepErasedObjects(house: { readonly store: Store; readonly pipeline: PipelinePart }): number {
  let removed = 0;
  for (const id of house.store.contentReferences.erasedRows()) {
    for (const a of house.store.attachments.ofRow(id)) {
      for (const hash of distinct([a.content_hash, a.served_hash])) {
        if (!house.store.contentReferences.objectNamed(hash) && house.pipeline.attachmentStore.removeObject(hash)) removed++;
      }
    }
  }
  return removed;
}
