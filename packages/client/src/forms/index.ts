/**
 * The package's `forms` entry: the wire forms a reader checks signatures and proofs over,
 * shared with the gate that signs them (it imports them from here, so there is one of each):
 * RFC 8785 canonical JSON, the signed checkpoint note, the published collection's header and rows.
 * Pure text and bytes work, no Node built-in, so a browser bundle takes them too.
 */
export { canonicalJson } from './canonical-form.js';
export {
  CHECKPOINT_ORIGIN_PREFIX,
  ED25519_NOTE_ALGORITHM,
  checkpointOrigin,
  checkpointBody,
  noteKeyHashInput,
  signatureLine,
  parseCheckpoint,
  type ParsedCheckpoint,
} from './checkpoint-note.js';
export {
  COLLECTION_FORMAT,
  COLLECTION_SIGNING_PREFIX,
  COLLECTION_EVENT,
  collectionSigningText,
  rowLeaf,
  type CollectionHeader,
  type CollectionRow,
} from './collection-form.js';
