import type Database from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';
import type { PartMaker } from '../part.js';
import { LongReads } from '../long-reads/long-reads.js';
import { ReadBudget } from '../long-reads/read-budget.js';
import { ReadSnapshots, type ReadConnectionSettings } from '../store/read-snapshots.js';
import type { Store } from '../store/store.js';

/**
 * Long reads holding a snapshot at once; more wait, served in turn by identity. Each holds a
 * connection with its own page cache, and the WAL cannot restart past the oldest snapshot.
 */
const LONG_READS_AT_ONCE = 4;

/**
 * Long reads read the views through connections of their own, one snapshot each
 * (src/long-reads/). Built after the parts they read through, so they answer (or refuse)
 * before any of those closes.
 */
export const longReadsPart: PartMaker<GateConfig, { reads: ReadConnectionSettings; storeOf: (db: Database.Database) => Store; clock: Clock }, LongReads> = {
  name: 'the long reads',
  create: (config, { reads, storeOf, clock }) =>
    new LongReads(new ReadSnapshots(reads, storeOf, LONG_READS_AT_ONCE), new ReadBudget(config.server.long_read_budget_ms, config.server.long_read_window_s * 1000, clock)),
};
