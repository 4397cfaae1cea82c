import Database from 'better-sqlite3';
import { Capabilities } from './access/capabilities.js';
import { Visibility } from './access/visibility.js';
import { systemClock, type Clock } from './clock.js';
import type { GateConfig } from './config/keys.js';
import type { ConfigOrigin } from './config/config-origin.js';
import type { HomePaths } from './config/home.js';
import { CursorSealer } from './journal/cursor.js';
import { DeploymentKey } from './journal/deployment-key.js';
import { WalCheckpointer } from './journal/wal-checkpointer.js';
import { WalSync, type FsyncFile } from './journal/wal-sync.js';
import { JournalWriter } from './journal/group-commit.js';
import { Journal } from './journal/journal.js';
import { SigningThread } from './journal/signing-thread.js';
import { createJournalSchema } from './journal/schema.js';
import { ArtifactReads, type ArtifactRow } from './projections/artifact-reads.js';
import { RelationReads } from './projections/relation-reads.js';
import { LogTreeReads } from './projections/log-tree-reads.js';
import { CollectionReads } from './projections/collection-reads.js';
import type { Caller } from './access/caller.js';
import { Projections } from './projections/projections.js';
import { secureIndexDeletes } from './projections/artifacts.js';
import { replayJournal } from './projections/rebuild.js';
import { VIEW_SCHEMA_VERSION, dropViews, markViewsCurrent, viewsAreCurrent } from './projections/view-version.js';
import { FreshBodies } from './recall/fresh-bodies.js';
import { HeldTextIndex } from './recall/held-text-index.js';
import { attachHeldIndex } from './recall/held-index-file.js';
import { LexicalRecall } from './recall/lexical.js';
import { RankedSearch } from './recall/ranked-search.js';
import { SteeringWalk } from './recall/steering.js';
import { ScanStage } from '../pipeline/scan-stage.js';
import { EmbedStage } from '../pipeline/embed-stage.js';
import { embedBackend } from './config/embed-backend.js';
import { backendDims, backendLabel } from '../workers/embed/backend.js';
import { PartitionCodes } from './recall/partition-codes.js';
import { VectorIndex } from './recall/vector-index.js';
import { VectorRecall } from './recall/vector.js';
import type { Verb } from './verbs/define-verb.js';
import { VERBS } from './verbs/registry.js';
import { SPACE_EVENTS } from './projections/spaces.js';
import { createLog, type Log } from './log.js';
import { logDecisions } from './journal/decision-log.js';
import { ReviewBoard } from './review/review-board.js';
import { reviewSettings } from './review/review-settings.js';
import { Grading } from './review/grading.js';
import type { ReviewSchedule } from './review/review-schedule.js';
import { PeopleFile } from './auth/people-file.js';
import { SigninSessions } from './auth/signin-sessions.js';
import { OperatorProofs } from './auth/operator-proofs.js';
import { AttachmentStore } from './attachments/attachment-store.js';
import { KeyedLock } from './attachments/keyed-lock.js';
import { recoverUploads, type Recovery } from './attachments/upload-recovery.js';
import { AttachmentReads } from './projections/attachment-reads.js';
import { BodyReads } from './projections/body-reads.js';
import { ContentReferences } from './projections/content-references.js';
import { sweepErasedObjects } from './erasure/erase-row.js';
import { notCountedUnread } from './review/read-before-signing.js';
import { BundleStage } from '../pipeline/bundle-stage.js';
import { ImageStage } from '../pipeline/image-stage.js';
import { Crews } from './crews/crews.js';
import { CrewSheets } from './crews/crew-sheets.js';

export interface GateOptions {
  clock?: Clock;
  log?: Log;
  /** Where each configuration value came from, and the flags that won over file and environment (gv.settings). */
  configOrigin?: ConfigOrigin;
  /** How the WAL is fsynced with synchronous = full (node:fs fsync unless a test holds it). */
  fsyncFile?: FsyncFile;
}

/**
 * The service core: the journal, its projections and the pipeline, plus everything a verb
 * needs to decide. Surfaces hold a Gate and hand it messages through dispatch().
 */
export class Gate {
  readonly db: Database.Database;
  readonly key: DeploymentKey;
  readonly journal: Journal;
  readonly writer: JournalWriter;
  readonly checkpointer: WalCheckpointer;
  /** Signs the events of writes that allow it (the ingest's) beside the main thread's work. */
  readonly signing: SigningThread;
  private readonly walSync: WalSync | undefined;
  readonly projections: Projections;
  readonly capabilities: Capabilities;
  readonly visibility: Visibility;
  readonly artifacts: ArtifactReads;
  readonly relations: RelationReads;
  /** Roots and proofs of the journal's Merkle tree (checkpoints, inclusion, consistency). */
  readonly logTree: LogTreeReads;
  /** Published collections (gv.publish, gv.collection). */
  readonly collections: CollectionReads;
  readonly lexical: LexicalRecall;
  readonly rankedSearch: RankedSearch;
  /** held_fts, each writer's scanned held rows for its own recall, written after each commit. */
  readonly heldText: HeldTextIndex;
  /** Bodies an ingest just stored, for the indexes written after its answer (src/recall/fresh-bodies.ts). */
  readonly freshBodies = new FreshBodies();
  readonly steering: SteeringWalk;
  readonly cursors: CursorSealer;
  readonly verbs: ReadonlyMap<string, Verb>;
  readonly clock: Clock;
  readonly log: Log;
  readonly scan: ScanStage;
  /** Vector recall over the embedded rows (the vector half of hybrid recall). */
  readonly vector: VectorRecall;
  /** Embeds rows entering ACTIVE or L1_SCANNED after their commit; gv.rebuild checks its index. */
  readonly embed: EmbedStage;
  private readonly partitionCodes: PartitionCodes;
  /** Attachment bytes by hash, and unfinished uploads (gv.upload, gv.attachment). */
  readonly attachmentStore: AttachmentStore;
  readonly attachments: AttachmentReads;
  readonly bodyReads: BodyReads;
  /** Who still names stored bytes (an erasure removes only what no live row names). */
  readonly contentReferences: ContentReferences;
  /** One chunk of one writer's upload at a time (see underUploadLock). */
  readonly uploadLocks = new KeyedLock();
  /** The completions a crash left owed, made after open (see recoverUploads); close waits for them. */
  uploadRecovery: Promise<Recovery> = Promise.resolve({ completed: 0, discarded: 0, deferred: 0 });
  /** Media types and served copies of uploads (the Piscina image pool). */
  readonly images: ImageStage;
  /** ZIP inspection for gv.ingest_bundle and gv.ingest_map (the Piscina bundle pool). */
  readonly bundles: BundleStage;
  /** Model grading, quorum, signatures and the human-review clocks. */
  readonly review: ReviewBoard;
  readonly grading: Grading;
  /** gate serve's grading schedule, once it runs (gv.review_runs reports it). */
  schedule: ReviewSchedule | null = null;
  /** The space names, read again only once a space event is applied (requireSpace asks on every ingest). */
  private readonly spaceList: () => readonly string[];
  /** Who may sign in at this gate's own issuer (password hashes; never in the journal). */
  readonly people: PeopleFile;
  /** Refresh-token families of the sign-in provider, journaled. */
  readonly signinSessions: SigninSessions;
  /** gv.challenge nonces and the operator keys that sign them. */
  readonly operatorProofs: OperatorProofs;
  /**
   * Rows the running scanner scanned again and found unchanged: gv.scan_pending does not ask
   * again before a restart. Not a journal fact: nothing changed.
   */
  readonly rescannedUnchanged = new Set<string>();
  /** Where each configuration value came from, and what gv.settings_save saved that waits for a restart. */
  readonly configOrigin: ConfigOrigin;
  /** Runners, their crews' assignments and keys, tokens and the newest hello per key. */
  readonly crews: Crews;
  /** Crew sheets as rows: which spaces are crews, and who answers their questions. */
  readonly crewSheets: CrewSheets;
  /** Where the surfaces listen, once they do (reported by gv.ping). */
  readonly endpoints: { http?: string; socket?: string } = {};

  private constructor(
    readonly paths: HomePaths,
    readonly config: GateConfig,
    options: GateOptions,
  ) {
    // Checked before anything is opened: a review section naming a missing profile or backend stops the start.
    const review = reviewSettings(config.review);
    this.clock = options.clock ?? systemClock;
    this.configOrigin = options.configOrigin ?? { sources: {}, flags: {}, savedForRestart: new Map() };
    this.log = options.log ?? createLog({ level: config.log.level, format: config.log.format });
    this.key = DeploymentKey.openOrCreate(paths.key);
    // How gate.db is read, here and by the code-scan worker's own connection.
    const reads = { path: paths.db, cacheKiB: config.journal.cache_mb * 1024, mmapBytes: config.journal.mmap_mb * 1024 * 1024 };
    this.db = new Database(reads.path);
    this.db.pragma('journal_mode = WAL');
    // full: SQLite writes each commit's frames and returns; WalSync fsyncs them off the main
    // thread and the writer answers only after (see src/journal/wal-sync.ts).
    const synchronous = config.journal.synchronous === 'full' ? 'NORMAL' : config.journal.synchronous.toUpperCase();
    this.db.pragma(`synchronous = ${synchronous}`);
    // Deleted cells and freed pages are zeroed, so erased bytes leave the file (gv.erase).
    this.db.pragma(`secure_delete = ${config.journal.secure_delete ? 'ON' : 'OFF'}`);
    this.walSync =
      config.journal.synchronous === 'full'
        ? new WalSync(`${paths.db}-wal`, {
            ...(options.fsyncFile === undefined ? {} : { fsyncFile: options.fsyncFile }),
            onFailure: (error) => this.log.error('writes are refused until the gate restarts', error),
          })
        : undefined;
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma(`cache_size = -${reads.cacheKiB}`);
    this.db.pragma(`mmap_size = ${reads.mmapBytes}`);
    const heldIndex = { path: paths.heldIndex, synchronous, secureDelete: config.journal.secure_delete, mmapBytes: reads.mmapBytes };
    attachHeldIndex(this.db, heldIndex);
    createJournalSchema(this.db);
    this.checkpointer = new WalCheckpointer(this.db, this.log);
    const replayViews = !viewsAreCurrent(this.db);
    if (replayViews) dropViews(this.db);
    this.projections = new Projections(this.db, 'main', (rowid, erased) => this.heldText?.moved(rowid, erased));
    if (replayViews) {
      const events = replayJournal(this.db, this.projections);
      markViewsCurrent(this.db);
      if (events > 0) this.log.info(`views rebuilt from ${events} journal events for view schema ${VIEW_SCHEMA_VERSION}`);
    }
    this.signing = new SigningThread(this.key, this.log);
    this.journal = new Journal(this.db, this.key, this.clock, (event, next) => this.projections.apply(event, next), this.signing);
    this.writer = new JournalWriter(this.db, this.journal, {
      onListenerError: (error) => this.log.error('a commit listener failed', error),
      maxBatch: config.journal.batch_max,
      windowMs: config.journal.commit_window_ms,
      ...(this.walSync === undefined ? {} : { walSync: this.walSync }),
      pressure: () => this.heldText?.pressure(),
    });
    this.heldText = new HeldTextIndex(this.db, this.writer, this.log, this.freshBodies, { views: reads.path, index: heldIndex });
    secureIndexDeletes(this.db, ['main.recall_fts', 'held.held_fts'], config.journal.secure_delete);
    logDecisions(this.db, this.writer, this.log);
    this.capabilities = new Capabilities(this.db, config.access.open_spaces);
    this.visibility = new Visibility(this.capabilities);
    this.artifacts = new ArtifactReads(this.db, this.journal.viewChanges);
    this.relations = new RelationReads(this.db);
    this.logTree = new LogTreeReads(this.db);
    this.collections = new CollectionReads(this.db);
    const spaceList = this.db.prepare('SELECT name FROM spaces ORDER BY name').pluck();
    this.spaceList = this.journal.viewChanges.memo(SPACE_EVENTS, () => spaceList.all() as string[]);
    this.lexical = new LexicalRecall(this.db, this.artifacts);
    this.steering = new SteeringWalk(this.db, this.artifacts);
    this.cursors = new CursorSealer(this.key.seed());
    this.verbs = new Map(VERBS.map((v) => [v.name, v as Verb]));
    this.scan = new ScanStage({
      threads: config.scan.threads,
      batchMax: config.scan.batch_max,
      queueMax: config.quarantine.scan_queue,
      personalDataSeverity: config.scan.personal_data_severity,
    });
    const backend = embedBackend(config.embed);
    const vectorIndex = new VectorIndex(this.db, backendLabel(backend), backendDims(backend), this.log);
    const partitionCodes = (this.partitionCodes = new PartitionCodes(vectorIndex, this.log, reads));
    this.embed = new EmbedStage(this.db, vectorIndex, partitionCodes, this.writer, this.log, {
      backend,
      threads: config.embed.threads,
      batchMax: config.embed.batch_max,
    }, this.freshBodies);
    this.vector = new VectorRecall(
      this.db,
      vectorIndex,
      partitionCodes,
      (text) => this.embed.embedQuery(text),
      () => this.embed.pending,
      (rowids) => this.embed.misplaced(rowids),
    );
    this.rankedSearch = new RankedSearch(this.lexical, this.vector, this.artifacts, this.heldText);
    this.attachmentStore = new AttachmentStore(paths.attachments);
    this.attachments = new AttachmentReads(this.db);
    this.bodyReads = new BodyReads(this.db);
    this.contentReferences = new ContentReferences(this.db);
    const liveParts = this.attachments
      .liveUploads(this.clock.now() - config.attachments.upload_ttl_ms)
      .map((u) => this.attachmentStore.partPath(u.writer, u.sha256));
    const swept = this.attachmentStore.sweep(new Set(liveParts));
    if (swept > 0) this.log.info(`removed ${swept} partial uploads no live upload owns`);
    const erasedObjects = sweepErasedObjects(this);
    if (erasedObjects > 0) this.log.info(`removed ${erasedObjects} attachment objects of erased rows left by a stop before their removal`);
    const poolBound = { queueMax: config.quarantine.scan_queue, retryAfterMs: 1000 };
    this.images = new ImageStage({
      maxPixels: config.image.max_pixels,
      threads: config.image.threads,
      deadlineMs: config.image.deadline_ms,
      heapMb: config.image.heap_mb,
      ...poolBound,
    });
    this.bundles = new BundleStage(
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
    );
    this.review = new ReviewBoard(this.db, review, this.relations, (id) => this.artifacts.byId(id), (who, cls, row) => notCountedUnread(this, who, cls, row), this.clock, {
      threads: config.review.threads,
      concurrency: config.review.concurrency,
      batchMax: config.review.batch_max,
    });
    this.grading = new Grading(this);
    this.people = new PeopleFile(paths.people);
    this.signinSessions = new SigninSessions(this);
    this.operatorProofs = new OperatorProofs(config.auth.operator_keys, config.auth.challenge_ttl_ms, this.clock);
    this.crews = new Crews(this.db, this.key.seed(), this.clock, {
      helloIntervalMs: config.runners.hello_interval_seconds * 1000,
      goneMs: config.runners.gone_seconds * 1000,
      waitMinutes: config.runners.wait_minutes,
    });
    this.crewSheets = new CrewSheets(this.db, this.artifacts);
  }

  /** This gate's own sign-in issuer, or null when it is not a sign-in provider. */
  get issuer(): string | null {
    return this.config.auth.issuer === '' ? null : this.config.auth.issuer;
  }

  /** Opens the home's database, creating the genesis event and the main space on first start. */
  static open(paths: HomePaths, config: GateConfig, options: GateOptions = {}): Gate {
    const gate = new Gate(paths, config, options);
    if (gate.journal.chainHead.seq === 0) {
      gate.db.transaction(() => {
        gate.journal.append('deployment-created', null, { deployment_id: gate.key.deploymentId, service: 'gate' });
        gate.journal.append('space-created', null, {
          space: 'main',
          owner: 'operator',
          policy: config.spaces.main_policy,
        });
      })();
      gate.walSync?.committed();
    }
    gate.heldText.start();
    gate.embed.start();
    gate.uploadRecovery = recoverUploads(gate);
    return gate;
  }

  get deploymentId(): string {
    return this.key.deploymentId;
  }

  /** A row by id when the caller may read it; otherwise the rule-U refusal, identical to a missing id. */
  readableArtifact(caller: Caller, id: string): ArtifactRow {
    return this.visibility.readable(caller, id, this.artifacts.byId(id));
  }

  spaceNames(): string[] {
    return [...this.spaceList()];
  }

  /** What close() is waiting for, for a shutdown past its deadline to name; null before it starts. */
  get closing(): string | null {
    return this.closeStep;
  }
  private closeStep: string | null = null;

  /**
   * Drains the pipeline, commits what is queued and closes the database, one awaited step
   * at a time: every thread is gone (pools destroyed, the checkpoint thread exited) before
   * the connection closes, so nothing of ours runs in native code when the process ends.
   */
  async close(): Promise<void> {
    const steps: Array<[string, () => unknown]> = [
      // It uses the scan and image pools and the writer.
      ['the upload recovery', () => this.uploadRecovery],
      ['the scan pool', () => this.scan.close()],
      ['the review pool', () => this.review.close()],
      ['grading', () => this.grading.drain()],
      ['the embed pool', () => this.embed.close()],
      ['the partition-code scans', () => this.partitionCodes.close()],
      ['the image pool', () => this.images.close()],
      ['the bundle pool', () => this.bundles.close()],
      ['the held-text index', () => this.heldText.close()],
      ['the journal writer', () => this.writer.close().catch((error: unknown) => this.log.error('closing the journal', error))],
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
