import type Database from 'better-sqlite3';
import type { GateConfig } from '../config/keys.js';
import { embedBackend } from '../config/embed-backend.js';
import type { Log } from '../log.js';
import type { Part, PartMaker } from '../part.js';
import type { JournalWriter } from '../journal/group-commit.js';
import type { FreshBodies } from '../recall/fresh-bodies.js';
import type { HeldIndexFileSettings } from '../../workers/held-writer/held-index-file.js';
import { HeldTextIndex } from '../recall/held-text-index.js';
import { PartitionCodes } from '../recall/partition-codes.js';
import { VectorIndex } from '../recall/vector-index.js';
import type { ReadConnectionSettings } from '../store/read-snapshots.js';
import { EmbedStage } from '../../pipeline/embed-stage.js';
import { backendDims, backendLabel } from '../../workers/embed/backend.js';

/**
 * The indexes written after a commit, in the order the root builds them
 * (docs/architecture.md#parts-with-a-life): the held-text index and its thread, the
 * vector index with its partition-code scans, then the embed pool that writes into both.
 */

/** held_fts, each writer's scanned held rows, written after each commit on a thread of its own. */
export const heldTextPart: PartMaker<
  GateConfig,
  { db: Database.Database; writer: JournalWriter; log: Log; fresh: FreshBodies; reads: ReadConnectionSettings; heldIndex: HeldIndexFileSettings },
  HeldTextIndex
> = {
  name: 'the held-text index',
  create: (_config, { db, writer, log, fresh, reads, heldIndex }) => new HeldTextIndex(db, writer, log, fresh, { views: reads.path, index: heldIndex }),
};

/** The vector index and the code-scan thread that reads its large partitions. */
export interface VectorIndexPart extends Part {
  readonly index: VectorIndex;
  readonly codes: PartitionCodes;
}

export const partitionCodesPart: PartMaker<GateConfig, { db: Database.Database; log: Log; reads: ReadConnectionSettings }, VectorIndexPart> = {
  name: 'the partition-code scans',
  create(config, { db, log, reads }) {
    const backend = embedBackend(config.embed);
    const index = new VectorIndex(db, backendLabel(backend), backendDims(backend), log);
    const codes = new PartitionCodes(index, log, reads);
    return { index, codes, close: () => codes.close() };
  },
};

/** Embeds rows after their commit (it follows the writer once started: EmbedStage.start). */
export const embedPart: PartMaker<
  GateConfig,
  { db: Database.Database; vectors: VectorIndexPart; writer: JournalWriter; log: Log; fresh: FreshBodies },
  EmbedStage
> = {
  name: 'the embed pool',
  create: (config, { db, vectors, writer, log, fresh }) =>
    new EmbedStage(db, vectors.index, vectors.codes, writer, log, { backend: embedBackend(config.embed), threads: config.embed.threads, batchMax: config.embed.batch_max }, fresh),
};
