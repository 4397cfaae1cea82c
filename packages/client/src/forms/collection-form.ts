import { canonicalJson } from './canonical-form.js';

/**
 * `gate.collection/1`: a published, signed, versioned snapshot of a space's ACTIVE rows
 * (gv.publish, gv.collection). Pure, so the browser's check shares it with the gate.
 *
 * The header is what the deployment signs (Ed25519 over the prefix and its canonical JSON)
 * and what the collection id hashes; the rows are leaves of their own RFC 9162 tree, each
 * leaf the UTF-8 of a row's canonical JSON, sorted by artifact id, its root in the header.
 */
export const COLLECTION_FORMAT = 'gate.collection/1';
export const COLLECTION_SIGNING_PREFIX = 'gate collection/1\n';
export const COLLECTION_EVENT = 'collection-published';

export interface CollectionRow {
  artifact_id: string;
  content_hash: string;
  size_bytes: number;
  content_type: string;
  trust_class: string;
  /** Not yet countersigned by a second authority when published. */
  provisional: boolean;
}

export interface CollectionHeader {
  format: typeof COLLECTION_FORMAT;
  deployment_id: string;
  space: string;
  name: string;
  version: number;
  published_at: number;
  /** The journal position the snapshot was cut at: the events before the publish. */
  journal_size: number;
  /** The signed checkpoint of the journal at journal_size. */
  checkpoint: string;
  rows: number;
  /** Base64 RFC 9162 root over the rows' leaves. */
  rows_root: string;
}

export const collectionSigningText = (header: CollectionHeader) => COLLECTION_SIGNING_PREFIX + canonicalJson(header);

export const rowLeaf = (row: CollectionRow) => new TextEncoder().encode(canonicalJson(row));
