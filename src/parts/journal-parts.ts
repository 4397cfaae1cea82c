import type Database from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';
import type { HomePaths } from '../config/home.js';
import type { Log } from '../log.js';
import type { Part, PartMaker } from '../part.js';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import type { AppendFollower } from '../journal/followers.js';
import { JournalWriter } from '../journal/group-commit.js';
import { Journal } from '../journal/journal.js';
import { SigningThread } from '../journal/signing-thread.js';
import { WalCheckpointer } from '../journal/wal-checkpointer.js';
import { WalSync, type FsyncFile } from '../journal/wal-sync.js';

/**
 * The journal's parts, in the order the root builds them (docs/architecture.md#parts-with-a-life):
 * the WAL sync (before the database, so it closes after the last commit's frames), the
 * checkpoint thread and the signing thread (after the database they use), and the writer.
 */

/** The WAL's fsync off the main thread, when journal.synchronous is full (none otherwise). */
export interface WalSyncPart extends Part {
  readonly sync: WalSync | undefined;
}

export const walSyncPart: PartMaker<GateConfig, { paths: HomePaths; log: Log; fsyncFile: FsyncFile | undefined }, WalSyncPart> = {
  name: 'the WAL sync',
  create(config, { paths, log, fsyncFile }) {
    // Opens nothing until the first commit asks for a sync, so it can stand before the database.
    const sync =
      config.journal.synchronous === 'full'
        ? new WalSync(`${paths.db}-wal`, {
            ...(fsyncFile === undefined ? {} : { fsyncFile }),
            onFailure: (error) => log.error('writes are refused until the gate restarts', error),
          })
        : undefined;
    return {
      sync,
      close: async () => {
        sync?.close();
      },
    };
  },
};

export const checkpointThreadPart: PartMaker<GateConfig, { db: Database.Database; log: Log }, WalCheckpointer> = {
  name: 'the checkpoint thread',
  create: (_config, { db, log }) => new WalCheckpointer(db, log),
};

/** Signs the events of writes that allow it (the ingest's) beside the main thread's work. */
export const signingThreadPart: PartMaker<GateConfig, { key: DeploymentKey; log: Log }, SigningThread> = {
  name: 'the signing thread',
  create: (_config, { key, log }) => new SigningThread(key, log),
};

/** The journal (append, sign, chain) and its writer (group commit); closing drains what is queued. */
export interface JournalWriterPart extends Part {
  readonly journal: Journal;
  readonly writer: JournalWriter;
}

export const journalWriterPart: PartMaker<
  GateConfig,
  { db: Database.Database; key: DeploymentKey; clock: Clock; log: Log; views: AppendFollower; signing: SigningThread; walSync: WalSync | undefined },
  JournalWriterPart
> = {
  name: 'the journal writer',
  create(config, { db, key, clock, log, views, signing, walSync }) {
    const journal = new Journal(db, key, clock, views, signing);
    const writer = new JournalWriter(db, journal, {
      onListenerError: (error) => log.error('a commit follower failed', error),
      maxBatch: config.journal.batch_max,
      windowMs: config.journal.commit_window_ms,
      ...(walSync === undefined ? {} : { walSync }),
    });
    return {
      journal,
      writer,
      close: () => writer.close().catch((error: unknown) => log.error('closing the journal', error)),
    };
  },
};
