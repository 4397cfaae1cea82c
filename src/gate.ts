import { availableParallelism } from 'node:os';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { Capabilities } from './access/capabilities.js';
import { Visibility } from './access/visibility.js';
import { systemClock, type Clock } from './clock.js';
import type { GateConfig } from './config/keys.js';
import type { ConfigOrigin } from './config/config-origin.js';
import type { HomePaths } from './config/home.js';
import { CursorSealer } from './journal/cursor.js';
import { openSigningKey, type DeploymentKey } from './journal/deployment-key.js';
import { SigningKeys } from './forms/signing-keys.js';
import { DeploymentKeyReads } from './projections/deployment-key-reads.js';
import { homeTooNew, journalIsEmpty, readHomeRecord, recordBuild, recordPlace } from './store/home-record.js';
import { herePlace, placement, readRestoredFrom, type Placement } from './store/home-place.js';
import { WalCheckpointer } from './journal/wal-checkpointer.js';
import { WalSync, type FsyncFile } from './journal/wal-sync.js';
import { JournalWriter } from './journal/group-commit.js';
import { Journal } from './journal/journal.js';
import { SigningThread } from './journal/signing-thread.js';
import { createJournalSchema } from './journal/schema.js';
import { Projections } from './projections/projections.js';
import { secureIndexDeletes } from './projections/artifacts.js';
import { replayJournal } from './projections/rebuild.js';
import { VIEW_SCHEMA_VERSION, dropViews, markViewsCurrent, viewsAreCurrent } from './projections/view-version.js';
import { FreshBodies } from './recall/fresh-bodies.js';
import { HeldTextIndex } from './recall/held-text-index.js';
import { attachHeldIndex } from './recall/held-index-file.js';
import { LexicalRecall } from './recall/lexical.js';
import { RankedSearch } from './recall/ranked-search.js';
import { NeighbourContext } from './recall/neighbour-context.js';
import { Reranker } from './recall/reranker.js';
import { SteeringWalk } from './recall/steering.js';
import { ScanStage } from '../pipeline/scan-stage.js';
import { PromotedRescan } from './scanning/promoted-rescan.js';
import { EmbedStage } from '../pipeline/embed-stage.js';
import { embedBackend } from './config/embed-backend.js';
import { backendDims, backendLabel } from '../workers/embed/backend.js';
import { PartitionCodes } from './recall/partition-codes.js';
import { VectorIndex } from './recall/vector-index.js';
import { VectorRecall } from './recall/vector.js';
import { createLog, type Log } from './log.js';
import { DecisionLog } from './store/decision-log.js';
import { Store } from './store/store.js';
import type { House } from './verbs/house.js';
import { LongReads } from './long-reads/long-reads.js';
import { ReadBudget } from './long-reads/read-budget.js';
import { ReadSnapshots } from './store/read-snapshots.js';
import type { AccessPart } from './access/access-part.js';
import type { AuthPart } from './auth/auth-part.js';
import type { RecallPart } from './recall/recall-part.js';
import type { PipelinePart } from '../pipeline/pipeline-part.js';
import type { ReviewPart } from './review/review-part.js';
import type { CrewsPart } from './crews/crews-part.js';
import type { Deployment } from './journal/deployment.js';
import { ReviewBoard } from './review/review-board.js';
import { reviewSettings } from './review/review-settings.js';
import { Grading } from './review/grading.js';
import { Detection } from './review/detection.js';
import { PeopleFile } from './auth/people-file.js';
import { SigninSessions } from './auth/signin-sessions.js';
import { OperatorProofs } from './auth/operator-proofs.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { AttachmentStore } from './attachments/attachment-store.js';
import { KeyedLock } from './attachments/keyed-lock.js';
import { recoverUploads } from './attachments/upload-recovery.js';
import { sweepErasedObjects } from './erasure/erase-row.js';
import { notCountedUnread } from './review/read-before-signing.js';
import { BundleStage } from '../pipeline/bundle-stage.js';
import { ImageStage } from '../pipeline/image-stage.js';
import { Crews } from './crews/crews.js';
import { CrewSheets } from './crews/crew-sheets.js';
import { JournalCounts } from './metrics/journal-counts.js';
import type { NotReady } from './surfaces/health-routes.js';

/**
 * Long reads holding a snapshot at once; more wait, served in turn by identity. Each holds a
 * connection with its own page cache, and the WAL cannot restart past the oldest snapshot.
 */
const LONG_READS_AT_ONCE = 4;

export interface GateOptions {
  clock?: Clock;
  log?: Log;
  /** Where each configuration value came from, and the flags that won over file and environment (gv.settings). */
  configOrigin?: ConfigOrigin;
  /** The operator says this home is now the gate, wherever it was placed before (`gate serve --takeover`, journaled). */
  takeover?: boolean;
  /** How the WAL is fsynced with synchronous = full (node:fs fsync unless a test holds it). */
  fsyncFile?: FsyncFile;
}

/**
 * The composition root: opens the home's database, builds each part of the house (the
 * store, access, auth, recall, the pipeline, review, crews and the deployment), subscribes
 * the journal's followers, and closes it all in order. Only the server, the CLI and the test
 * harness hold a Gate; everything else takes the parts it uses (docs/architecture.md).
 */
export class Gate implements House {
  /** The raw connection: the root's alone (the store's read models, the checkpointer and close use it). */
  readonly db: Database.Database;
  private readonly checkpointer: WalCheckpointer;
  /** Signs the events of writes that allow it (the ingest's) beside the main thread's work. */
  readonly signing: SigningThread;
  private readonly walSync: WalSync | undefined;
  private readonly partitionCodes: PartitionCodes;
  /** The home-placed event this start journals (a new home, a restore, a takeover), or null. */
  private readonly placement: Placement | null;
  /** The injection detector, when `detector.url` is set: started by open(), stopped by close(). */
  private readonly detection: Detection | null;
  readonly store: Store;
  readonly access: AccessPart;
  readonly auth: AuthPart;
  readonly recall: RecallPart;
  readonly pipeline: PipelinePart;
  readonly review: ReviewPart;
  readonly reads: LongReads;
  readonly crews: CrewsPart;
  readonly deployment: Deployment;
  readonly clock: Clock;
  readonly log: Log;
  /** What this process committed, by event type, for /metrics (src/metrics/journal-counts.ts). */
  readonly journalCounts = new JournalCounts();

  private constructor(
    paths: HomePaths,
    readonly config: GateConfig,
    options: GateOptions,
  ) {
    // Checked before anything is opened: a review section naming a missing profile or backend stops the start.
    const reviewConfig = reviewSettings(config.review);
    const clock = (this.clock = options.clock ?? systemClock);
    const log = (this.log = options.log ?? createLog({ level: config.log.level, format: config.log.format }));
    // How gate.db is read, here and by the code-scan worker's own connection.
    const reads = { path: paths.db, cacheKiB: config.journal.cache_mb * 1024, mmapBytes: config.journal.mmap_mb * 1024 * 1024 };
    const db = (this.db = new Database(reads.path));
    let key: DeploymentKey;
    let signingKeys: SigningKeys;
    let projections: Projections;
    const synchronous = config.journal.synchronous === 'full' ? 'NORMAL' : config.journal.synchronous.toUpperCase();
    const heldIndex = { path: paths.heldIndex, synchronous, secureDelete: config.journal.secure_delete, mmapBytes: reads.mmapBytes };
    try {
      // Before anything is written: a home a newer build wrote, or a copy started away from
      // where it was placed, is refused with the database untouched.
      const record = readHomeRecord(db);
      const tooNew = homeTooNew(record);
      if (tooNew !== null) throw new Error(tooNew);
      const restored = readRestoredFrom(paths.restoredFrom);
      this.placement = placement(record.place, herePlace(paths.home), { takeover: options.takeover === true, restored, fresh: journalIsEmpty(db) });
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
      projections = new Projections(db, 'main');
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
      key = opened.key;
      signingKeys = chain ?? SigningKeys.ofDeployment(key.deploymentId);
    } catch (error) {
      db.close();
      throw error;
    }
    const endpoints: { http?: string; socket?: string } = {};
    const closing = () => this.closeStep;
    this.deployment = {
      key,
      deploymentId: signingKeys.deploymentId,
      signingKeys,
      paths,
      configOrigin: options.configOrigin ?? { sources: {}, flags: {}, savedForRestart: new Map() },
      endpoints,
      get closing() {
        return closing();
      },
    };
    this.walSync =
      config.journal.synchronous === 'full'
        ? new WalSync(`${paths.db}-wal`, {
            ...(options.fsyncFile === undefined ? {} : { fsyncFile: options.fsyncFile }),
            onFailure: (error) => log.error('writes are refused until the gate restarts', error),
          })
        : undefined;
    this.checkpointer = new WalCheckpointer(db, log);

    // A write's path: the journal appends and signs, the views fold each event in the same
    // transaction, the writer commits in groups; after the commit, the decision log, the
    // vector index and the held-text index follow (each subscribed below, by its interface).
    this.signing = new SigningThread(key, log);
    const journal = new Journal(db, key, clock, this.journalCounts.following(projections), this.signing);
    const writer = new JournalWriter(db, journal, {
      onListenerError: (error) => log.error('a commit follower failed', error),
      maxBatch: config.journal.batch_max,
      windowMs: config.journal.commit_window_ms,
      ...(this.walSync === undefined ? {} : { walSync: this.walSync }),
    });
    const cursors = new CursorSealer(key.seed());
    const store = (this.store = new Store(db, journal, writer, cursors, this.checkpointer));
    // Long reads read the views through connections of their own, one snapshot each (src/long-reads/).
    const snapshots = new ReadSnapshots(reads, (readDb) => new Store(readDb, journal, writer, cursors, this.checkpointer), LONG_READS_AT_ONCE);
    this.reads = new LongReads(snapshots, new ReadBudget(config.server.long_read_budget_ms, config.server.long_read_window_s * 1000, clock));
    const freshBodies = new FreshBodies();
    const heldText = new HeldTextIndex(db, writer, log, freshBodies, { views: reads.path, index: heldIndex });
    projections.followHeldRows(heldText);
    writer.holdWritesFor(heldText);
    secureIndexDeletes(db, ['main.recall_fts', 'held.held_fts'], config.journal.secure_delete);
    writer.follow(new DecisionLog(store.reviews, store.bans, log));
    writer.follow(this.journalCounts);

    const capabilities = new Capabilities(store.grants, config.access.open_spaces);
    const visibility = new Visibility(capabilities);
    this.access = {
      capabilities,
      visibility,
      readableArtifact: (caller, id) => visibility.readable(caller, id, store.artifacts.byId(id)),
    };

    const scan = new ScanStage({
      threads: config.scan.threads === 0 ? availableParallelism() : config.scan.threads,
      batchMax: config.scan.batch_max,
      queueMax: config.quarantine.scan_queue,
      deadlineMs: config.scan.deadline_ms,
      personalDataSeverity: config.scan.personal_data_severity,
    });
    const backend = embedBackend(config.embed);
    const vectorIndex = new VectorIndex(db, backendLabel(backend), backendDims(backend), log);
    const partitionCodes = (this.partitionCodes = new PartitionCodes(vectorIndex, log, reads));
    // The embed stage follows commits itself once started (EmbedStage.start: writer.follow).
    const embed = new EmbedStage(db, vectorIndex, partitionCodes, writer, log, {
      backend,
      threads: config.embed.threads,
      batchMax: config.embed.batch_max,
    }, freshBodies);
    const lexical = new LexicalRecall(db, store.artifacts);
    const vector = new VectorRecall(
      db,
      vectorIndex,
      partitionCodes,
      (text, weights) => embed.embedQuery(text, weights),
      () => embed.pending,
      (rowids) => embed.misplaced(rowids),
    );
    this.recall = {
      lexical,
      vector,
      rankedSearch: new RankedSearch(lexical, vector, store.artifacts, heldText, new NeighbourContext(db)),
      steering: new SteeringWalk(db, store.artifacts),
      heldText,
      reranker: config.rerank.url === '' ? null : new Reranker(config.rerank, clock, log),
    };

    const attachmentStore = new AttachmentStore(paths.attachments);
    const liveParts = store.attachments
      .liveUploads(clock.now() - config.attachments.upload_ttl_ms)
      .map((u) => attachmentStore.partPath(u.writer, u.sha256));
    const swept = attachmentStore.sweep(new Set(liveParts));
    if (swept > 0) log.info(`removed ${swept} partial uploads no live upload owns`);
    const poolBound = { queueMax: config.quarantine.scan_queue, retryAfterMs: 1000 };
    this.pipeline = {
      scan,
      embed,
      images: new ImageStage({
        maxPixels: config.image.max_pixels,
        threads: config.image.threads,
        deadlineMs: config.image.deadline_ms,
        heapMb: config.image.heap_mb,
        ...poolBound,
      }),
      bundles: new BundleStage(
        {
          archiveMaxBytes: config.bundle.archive_max_bytes,
          entriesMax: config.bundle.entries_max,
          memberMaxBytes: config.bundle.member_max_bytes,
          expandedMaxBytes: config.bundle.expanded_max_bytes,
          ratioMax: config.bundle.ratio_max,
          pathMaxBytes: config.bundle.path_max_bytes,
          pathMaxSegments: config.bundle.path_max_segments,
        },
        { threads: config.bundle.threads, ...poolBound },
      ),
      attachmentStore,
      uploadLocks: new KeyedLock(),
      freshBodies,
      rescannedUnchanged: new Set<string>(),
      // Reads the gate's parts when `gate serve` starts it, once they all stand.
      promotedRescan: new PromotedRescan(this),
      uploadRecovery: Promise.resolve({ completed: 0, discarded: 0, deferred: 0 }),
    };
    const erasedObjects = sweepErasedObjects({ store, pipeline: this.pipeline });
    if (erasedObjects > 0) log.info(`removed ${erasedObjects} attachment objects of erased rows left by a stop before their removal`);

    const detection = (this.detection = config.detector.url === '' ? null : new Detection({ store, config, clock, log }));
    const board = new ReviewBoard({ spaces: store.spaces, away: store.away }, reviewConfig, store.relations, store.reviews, store.comments, (id) => store.artifacts.byId(id), (who, cls, row) => notCountedUnread(this, config.review.read_before_signing, who, cls, row), clock, {
      threads: config.review.threads,
      concurrency: config.review.concurrency,
      batchMax: config.review.batch_max,
    }, detection);
    this.review = { board, grading: new Grading({ store, recall: this.recall, config, clock, log }, board), schedule: null, detection };
    this.auth = {
      people: new PeopleFile(paths.people),
      signinSessions: new SigninSessions({ store, clock }),
      operatorProofs: new OperatorProofs(config.auth.operator_keys, config.auth.challenge_ttl_ms, clock),
      issuer: config.auth.issuer === '' ? null : config.auth.issuer,
      passwordChecks: new LoginThrottle(
        { slowAfter: config.auth.login_slow_after, refuseAfter: config.auth.login_refuse_after, windowMs: config.auth.login_window_s * 1000, delayMs: config.auth.login_delay_ms },
        clock,
      ),
    };
    const runners = new Crews(db, key.seed(), clock, {
      helloIntervalMs: config.runners.hello_interval_seconds * 1000,
      goneMs: config.runners.gone_seconds * 1000,
      waitMinutes: config.runners.wait_minutes,
    });
    this.crews = { runners, sheets: new CrewSheets(store.artifacts) };
  }

  /**
   * Opens the home's database, creating the genesis event and the main space on first start,
   * journaling where the home is placed when that is new (home-placed), and recording this
   * build as the home's newest reader.
   */
  static open(paths: HomePaths, config: GateConfig, options: GateOptions = {}): Gate {
    const gate = new Gate(paths, config, options);
    const { journal } = gate.store;
    const placed = gate.placement;
    gate.db.transaction(() => {
      if (journal.chainHead.seq === 0) {
        journal.append('deployment-created', null, { deployment_id: gate.deployment.deploymentId, service: 'gate' });
        journal.append('space-created', null, {
          space: 'main',
          owner: 'operator',
          policy: config.spaces.main_policy,
        });
      }
      if (placed !== null) recordPlace(gate.db, { ...placed.place, seq: journal.append('home-placed', null, placed.data).seq });
      recordBuild(gate.db);
    })();
    gate.walSync?.committed();
    if (placed !== null) {
      rmSync(paths.restoredFrom, { force: true });
      const where = `${placed.place.path} on host ${placed.place.host}`;
      if (placed.data['reason'] === 'takeover') gate.log.warn(`this home is the gate from now on (--takeover, journaled): placed at ${where}, where it was placed at ${(placed.data['previous'] as { path: string }).path} before`);
      else if (placed.data['reason'] === 'restored') gate.log.info(`journaled the restore of this home from a backup; placed at ${where}`);
    }
    gate.recall.heldText.start();
    gate.pipeline.embed.start();
    gate.detection?.start(gate);
    gate.pipeline.uploadRecovery = recoverUploads(gate);
    return gate;
  }

  private closeStep: string | null = null;

  /** How far the WAL checkpoints keep up (src/journal/wal-checkpointer.ts), for /metrics. */
  walProgress(): { lastComplete: number | null; framesBehind: number } {
    return this.checkpointer.walProgress();
  }

  /**
   * Why the gate cannot serve now, for GET /readyz (empty: it can): it is closing (its pools
   * are being destroyed), a WAL sync failed (writes are refused until a restart), or the
   * journal does not answer a read.
   */
  notReady(): NotReady[] {
    if (this.closeStep !== null) return [{ reason: 'stopping', detail: `the gate is closing: ${this.closeStep}` }];
    const reasons: NotReady[] = [];
    const failure = this.walSync?.failure;
    if (failure != null) reasons.push({ reason: 'journal_not_durable', detail: `${failure.message}; writes are refused until the gate restarts` });
    try {
      this.store.journal.readHead();
    } catch (error) {
      reasons.push({ reason: 'journal_unreadable', detail: `the journal does not answer a read: ${error instanceof Error ? error.message : String(error)}` });
    }
    return reasons;
  }

  /**
   * Drains the pipeline, commits what is queued and closes the database, one awaited step
   * at a time: every thread is gone (pools destroyed, the checkpoint thread exited) before
   * the connection closes, so nothing of ours runs in native code when the process ends.
   */
  async close(): Promise<void> {
    const steps: Array<[string, () => unknown]> = [
      // It uses the scan and image pools and the writer.
      // Long reads answer first: they read through the main connection's parts too.
      ['the long reads', () => this.reads.close()],
      ['the upload recovery', () => this.pipeline.uploadRecovery],
      ['the scan pool', () => this.pipeline.scan.close()],
      // Its verdicts are journaled and may settle rows: before the review pool and the writer close.
      ['the injection detector', () => this.detection?.close()],
      ['the review pool', () => this.review.board.close()],
      ['grading', () => this.review.grading.drain()],
      ['the embed pool', () => this.pipeline.embed.close()],
      ['the partition-code scans', () => this.partitionCodes.close()],
      ['the image pool', () => this.pipeline.images.close()],
      ['the bundle pool', () => this.pipeline.bundles.close()],
      ['the held-text index', () => this.recall.heldText.close()],
      ['the journal writer', () => this.store.writer.close().catch((error: unknown) => this.log.error('closing the journal', error))],
      ['the signing thread', () => this.signing.close()],
      ['the checkpoint thread', () => this.checkpointer.close()],
      ['the database', () => this.db.close()],
      ['the WAL sync', () => this.walSync?.close()],
    ];
    for (const [name, step] of steps) {
      this.closeStep = name;
      await step();
    }
    this.closeStep = 'closed';
  }
}
