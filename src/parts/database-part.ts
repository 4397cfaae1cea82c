import Database from 'better-sqlite3';
import type { GateConfig } from '../config/keys.js';
import type { HomePaths } from '../config/home.js';
import type { Log } from '../log.js';
import type { Part, PartMaker } from '../part.js';
import { openSigningKey, type DeploymentKey } from '../credentials/deployment-key.js';
import { createJournalSchema } from '../journal/schema.js';
import { SigningKeys } from '../forms/signing-keys.js';
import { DeploymentKeyReads } from '../projections/deployment-key-reads.js';
import { Projections } from '../projections/projections.js';
import { replayJournal } from '../projections/rebuild.js';
import { VIEW_SCHEMA_VERSION, dropViews, markViewsCurrent, viewsAreCurrent } from '../projections/view-version.js';
import { attachHeldIndex, type HeldIndexFileSettings } from '../../workers/held-writer/held-index-file.js';
import { homeTooNew, journalIsEmpty, readHomeRecord } from '../store/home-record.js';
import { herePlace, placement, readRestoredFrom, type Placement } from '../store/home-place.js';
import type { ReadConnectionSettings } from '../store/read-snapshots.js';

/** The home's database, opened and checked, its views current, and the key that signs next. */
export interface DatabasePart extends Part {
  /** The raw connection: the root's alone (the store's read models, the checkpointer and close use it). */
  readonly db: Database.Database;
  readonly projections: Projections;
  readonly key: DeploymentKey;
  readonly signingKeys: SigningKeys;
  /** The home-placed event this start journals (a new home, a restore, a takeover), or null. */
  readonly placement: Placement | null;
  /** How gate.db is read, here and by the connections of its own a thread or a long read opens. */
  readonly reads: ReadConnectionSettings;
  /** held-index.db, attached here and opened by the held-text index's thread. */
  readonly heldIndex: HeldIndexFileSettings;
}

/**
 * Opens gate.db. Before anything is written, a home a newer build wrote, or a copy started
 * away from where it was placed, is refused with the database untouched (and closed).
 */
export const databasePart: PartMaker<GateConfig, { paths: HomePaths; log: Log; takeover: boolean }, DatabasePart> = {
  name: 'the database',
  create(config, { paths, log, takeover }) {
    const reads = { path: paths.db, cacheKiB: config.journal.cache_mb * 1024, mmapBytes: config.journal.mmap_mb * 1024 * 1024 };
    const db = new Database(reads.path);
    const synchronous = config.journal.synchronous === 'full' ? 'NORMAL' : config.journal.synchronous.toUpperCase();
    const heldIndex = { path: paths.heldIndex, synchronous, secureDelete: config.journal.secure_delete, mmapBytes: reads.mmapBytes };
    try {
      const record = readHomeRecord(db);
      const tooNew = homeTooNew(record);
      if (tooNew !== null) throw new Error(tooNew);
      const restored = readRestoredFrom(paths.restoredFrom);
      const placed = placement(record.place, herePlace(paths.home), { takeover, restored, fresh: journalIsEmpty(db) });
      db.pragma('journal_mode = WAL');
      // full: SQLite writes each commit's frames and returns; WalSync fsyncs them off the main
      // thread and the writer answers only after (see src/journal/wal-sync.ts).
      db.pragma(`synchronous = ${synchronous}`);
      // Deleted cells and freed pages are zeroed, so erased bytes leave the file (gv.erase).
      db.pragma(`secure_delete = ${config.journal.secure_delete ? 'ON' : 'OFF'}`);
      db.pragma('foreign_keys = OFF');
      db.pragma(`cache_size = -${reads.cacheKiB}`);
      db.pragma(`mmap_size = ${reads.mmapBytes}`);
      attachHeldIndex(db, heldIndex);
      createJournalSchema(db);
      const replayViews = !viewsAreCurrent(db);
      if (replayViews) dropViews(db);
      const projections = new Projections(db, 'main');
      if (replayViews) {
        const events = replayJournal(db, projections);
        markViewsCurrent(db);
        if (events > 0) log.info(`views rebuilt from ${events} journal events for view schema ${VIEW_SCHEMA_VERSION}`);
      }
      // The key that signs next is the one the journal's last rotation names (gate key rotate).
      const keyReads = new DeploymentKeyReads(db);
      const genesis = keyReads.deploymentId();
      const chain = genesis === null ? null : SigningKeys.fromRotations(genesis, keyReads.rotations());
      if (chain !== null && 'problem' in chain) throw new Error(`the journal's key rotations do not hold: ${chain.problem}`);
      const opened = openSigningKey(paths.key, paths.nextKey, chain?.current ?? null);
      if (opened.repair === 'finished') log.warn(`finished a key rotation a stop had cut short: ${paths.key} is now the key the journal names`);
      if (opened.repair === 'dropped') log.warn(`dropped ${paths.nextKey}: the key rotation that wrote it was never journaled, and the key stays`);
      return {
        db,
        projections,
        key: opened.key,
        signingKeys: chain ?? SigningKeys.ofDeployment(opened.key.deploymentId),
        placement: placed,
        reads,
        heldIndex,
        close: async () => {
          db.close();
        },
      };
    } catch (error) {
      db.close();
      throw error;
    }
  },
};
