import type { AttachmentStore } from './attachment-store.js';
import type { KeyedLock } from './keyed-lock.js';
import type { Recovery } from './recovery.js';
import type { FreshBodies } from '../src/recall/fresh-bodies.js';
import type { BundleStage } from './bundle-stage.js';
import type { EmbedStage } from './embed-stage.js';
import type { ImageStage } from './image-stage.js';
import type { ScanStage } from './scan-stage.js';
import type { BackgroundRescan } from './background-rescan.js';

/** The pipeline part: the worker pools untrusted bytes go through, and the attachment bytes they produce. */
export interface PipelinePart {
  readonly scan: ScanStage;
  /** Embeds rows entering ACTIVE or L1_SCANNED after their commit; gv.rebuild checks its index. */
  readonly embed: EmbedStage;
  /** Media types and served copies of uploads (the Piscina image pool). */
  readonly images: ImageStage;
  /** ZIP inspection for gv.ingest_bundle and gv.ingest_map (the Piscina bundle pool). */
  readonly bundles: BundleStage;
  /** Attachment bytes by hash, and unfinished uploads (gv.upload, gv.attachment). */
  readonly attachmentStore: AttachmentStore;
  /** One chunk of one writer's upload at a time. */
  readonly uploadLocks: KeyedLock;
  /** Bodies an ingest just stored, for the indexes written after its answer (src/recall/fresh-bodies.ts). */
  readonly freshBodies: FreshBodies;
  /**
   * Rows the running scanner scanned again and found unchanged: gv.scan_pending does not ask
   * again before a restart. Not a journal fact: nothing changed.
   */
  readonly rescannedUnchanged: Set<string>;
  /** Promoted rows an older scanner saw, scanned again in the background (started by `gate serve`). */
  readonly promotedRescan: BackgroundRescan;
  /** The completions a crash left owed, made after open (see recoverUploads); close waits for them. */
  uploadRecovery: Promise<Recovery>;
}
