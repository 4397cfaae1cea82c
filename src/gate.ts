import type Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { Capabilities } from './access/capabilities.js';
import { Visibility } from './access/visibility.js';
import { systemClock, type Clock } from './clock.js';
import type { GateConfig } from './config/keys.js';
import type { ConfigOrigin } from './config/config-origin.js';
import type { HomePaths } from './config/home.js';
import { CursorSealer } from './journal/cursor.js';
import type { WalCheckpointer } from './journal/wal-checkpointer.js';
import type { WalSync, FsyncFile } from './journal/wal-sync.js';
import type { SigningThread } from './journal/signing-thread.js';
import type { Deployment } from './journal/deployment.js';
import { secureIndexDeletes } from './projections/artifacts.js';
import { recordBuild, recordPlace } from './store/home-record.js';
import type { Placement } from './store/home-place.js';
import { DecisionLog } from './store/decision-log.js';
import { Store } from './store/store.js';
import { FreshBodies } from './recall/fresh-bodies.js';
import { LexicalRecall } from './recall/lexical.js';
import { RankedSearch } from './recall/ranked-search.js';
import { NeighbourContext } from './recall/neighbour-context.js';
import { Reranker } from './recall/reranker.js';
import { recallTuning } from './config/recall-tuning.js';
import { SteeringWalk } from './recall/steering.js';
import { VectorRecall } from './recall/vector.js';
import { PromotedRescan } from './scanning/promoted-rescan.js';
import { createLog, type Log } from './log.js';
import type { House } from './verbs/house.js';
import type { LongReads } from './long-reads/long-reads.js';
import type { AccessPart } from './access/access-part.js';
import type { AuthPart } from './auth/auth-part.js';
import type { RecallPart } from './recall/recall-part.js';
import type { PipelinePart } from '../pipeline/pipeline-part.js';
import type { ReviewPart } from './review/review-part.js';
import type { CrewsPart } from './crews/crews-part.js';
import { reviewSettings } from './review/review-settings.js';
import type { Detection } from './review/detection.js';
import { PeopleFile } from './auth/people-file.js';
import { SigninSessions } from './auth/signin-sessions.js';
import { OperatorProofs } from './auth/operator-proofs.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { SignInProvider } from './auth/sign-in-provider.js';
import { AttachmentStore } from '../pipeline/attachment-store.js';
import { KeyedLock } from '../pipeline/keyed-lock.js';
import { recoverUploads } from './attachments/upload-recovery.js';
import { sweepErasedObjects } from './erasure/erase-row.js';
import { Crews } from './crews/crews.js';
import { CrewSheets } from './crews/crew-sheets.js';
import { JournalCounts } from './metrics/journal-counts.js';
import type { NotReady } from './surfaces/health-routes.js';
import { PartList } from './part-list.js';
import { databasePart } from './parts/database-part.js';
import { checkpointThreadPart, journalWriterPart, signingThreadPart, walSyncPart } from './parts/journal-parts.js';
import { embedPart, heldTextPart, partitionCodesPart } from './parts/index-parts.js';
import { bundlePoolPart, imagePoolPart, scanPoolPart, uploadRecoveryPart } from './parts/pipeline-parts.js';
import { reviewPart, reviewSchedulePart } from './parts/review-parts.js';
import { longReadsPart } from './parts/long-reads-part.js';
import { bearerAuth } from './parts/door-auth.js';

export interface GateOptions {
  clock?: Clock;
  log?: Log;
  /** Where each configuration value came from, and the flags that won over file and environment (gv.settings). */
  configOrigin?: ConfigOrigin;
  /** The operator says this home is now the gate, wherever it was placed before (`gate serve --takeover`, journaled). */
  takeover?: boolean;
  /** How the WAL is fsynced with synchronous = full (node:fs fsync unless a test holds it). */
  fsyncFile?: FsyncFile;
  /** `gate serve`: the review schedule is built and runs (the CLI's commands and in-process gates have none). */
  serving?: boolean;
}

/**
 * The composition root: builds each part of the house (the store, access, auth, recall, the
 * pipeline, review, crews and the deployment), subscribes the journal's followers, and
 * closes it all. The parts that hold something to release are built from their makers
 * (src/parts/) into one list, in an order where each takes only parts built before it, and
 * close() closes that list in reverse (docs/architecture.md#parts-with-a-life). Only the
 * server, the CLI and the test harness hold a Gate; everything else takes the parts it uses.
 */
export class Gate implements House {
  /** The raw connection: the root's alone (the store's read models, the checkpointer and close use it). */
  readonly db: Database.Database;
  private readonly checkpointer: WalCheckpointer;
  /** Signs the events of writes that allow it (the ingest's) beside the main thread's work. */
  readonly signing: SigningThread;
  private readonly walSync: WalSync | undefined;
  /** The home-placed event this start journals (a new home, a restore, a takeover), or null. */
  private readonly placement: Placement | null;
  /** The injection detector, when `detector.url` is set: started by open(), stopped by close(). */
  private readonly detection: Detection | null;
  /** Every part with a life, in the order built; close() closes them in reverse. */
  private readonly parts: PartList;
  /** Where the doors listen, once they do (listening()). */
  private readonly endpoints: { http?: string; socket?: string } = {};
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
    const parts = (this.parts = new PartList((name, error) => log.error(`closing ${name} failed`, error)));
    try {
      // A write's path: the journal appends and signs, the views fold each event in the same
      // transaction, the writer commits in groups; after the commit, the decision log, the
      // vector index and the held-text index follow (each subscribed below, by its interface).
      this.walSync = parts.make(walSyncPart, config, { paths, log, fsyncFile: options.fsyncFile }).sync;
      const { db, projections, key, signingKeys, placement, reads, heldIndex } = parts.make(databasePart, config, { paths, log, takeover: options.takeover === true });
      this.db = db;
      this.placement = placement;
      const endpoints = this.endpoints;
      this.deployment = {
        key,
        deploymentId: signingKeys.deploymentId,
        signingKeys,
        paths,
        configOrigin: options.configOrigin ?? { sources: {}, flags: {}, savedForRestart: new Map() },
        endpoints,
        get closing() {
          return parts.step;
        },
      };
      const checkpointer = (this.checkpointer = parts.make(checkpointThreadPart, config, { db, log }));
      this.signing = parts.make(signingThreadPart, config, { key, log });
      const { journal, writer } = parts.make(journalWriterPart, config, {
        db,
        key,
        clock,
        log,
        views: this.journalCounts.following(projections),
        signing: this.signing,
        walSync: this.walSync,
      });
      const cursors = new CursorSealer(key.seed());
      const store = (this.store = new Store(db, journal, writer, cursors, checkpointer));
      const freshBodies = new FreshBodies();
      const heldText = parts.make(heldTextPart, config, { db, writer, log, fresh: freshBodies, reads, heldIndex });
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

      const bundles = parts.make(bundlePoolPart, config, {});
      const images = parts.make(imagePoolPart, config, {});
      const vectors = parts.make(partitionCodesPart, config, { db, log, reads });
      // The embed stage follows commits itself once started (EmbedStage.start: writer.follow).
      const embed = parts.make(embedPart, config, { db, vectors, writer, log, fresh: freshBodies });
      const lexical = new LexicalRecall(db, store.artifacts);
      const vector = new VectorRecall(
        db,
        vectors.index,
        vectors.codes,
        (text, weights) => embed.embedQuery(text, weights),
        () => embed.pending,
        (rowids) => embed.misplaced(rowids),
      );
      // The ranking constants chosen by measuring, as this gate's [recall] settings, read at each
      // search so a saved change applies at once (live keys; docs/recall.md).
      const tuning = () => recallTuning(config.recall);
      this.recall = {
        lexical,
        vector,
        rankedSearch: new RankedSearch(lexical, vector, store.artifacts, heldText, new NeighbourContext(db, tuning), tuning),
        steering: new SteeringWalk(db, store.artifacts),
        heldText,
        reranker: config.rerank.url === '' ? null : new Reranker(config.rerank, clock, log),
      };

      const review = parts.make(reviewPart, config, { settings: reviewConfig, store, recall: this.recall, clock, log });
      this.detection = review.detection;
      this.review = { board: review.board, grading: review.grading, schedule: null, detection: review.detection };

      const scan = parts.make(scanPoolPart, config, {});
      const attachmentStore = new AttachmentStore(paths.attachments);
      const liveParts = store.attachments
        .liveUploads(clock.now() - config.attachments.upload_ttl_ms)
        .map((u) => attachmentStore.partPath(u.writer, u.sha256));
      const swept = attachmentStore.sweep(new Set(liveParts));
      if (swept > 0) log.info(`removed ${swept} partial uploads no live upload owns`);
      this.pipeline = {
        scan,
        embed,
        images,
        bundles,
        attachmentStore,
        uploadLocks: new KeyedLock(),
        freshBodies,
        rescannedUnchanged: new Set<string>(),
        // Reads the gate's parts when `gate serve` starts it, once they all stand.
        promotedRescan: new PromotedRescan(this),
        uploadRecovery: Promise.resolve({ completed: 0, discarded: 0, deferred: 0 }),
      };
      parts.make(uploadRecoveryPart, config, { pipeline: this.pipeline });
      const erasedObjects = sweepErasedObjects({ store, pipeline: this.pipeline });
      if (erasedObjects > 0) log.info(`removed ${erasedObjects} attachment objects of erased rows left by a stop before their removal`);

      this.reads = parts.make(longReadsPart, config, { reads, storeOf: (readDb) => new Store(readDb, journal, writer, cursors, checkpointer), clock });

      const issuer = config.auth.issuer === '' ? null : config.auth.issuer;
      const people = new PeopleFile(paths.people);
      this.auth = {
        people,
        signinSessions: new SigninSessions({ store, clock }),
        operatorProofs: new OperatorProofs(config.auth.operator_keys, config.auth.challenge_ttl_ms, clock),
        issuer,
        passwordChecks: new LoginThrottle(
          { slowAfter: config.auth.login_slow_after, refuseAfter: config.auth.login_refuse_after, windowMs: config.auth.login_window_s * 1000, delayMs: config.auth.login_delay_ms },
          clock,
        ),
        bearer: bearerAuth(config, { store, clock, deployment: this.deployment, people, issuer }),
        // It reads the house's parts when a request comes, once they all stand.
        signIn: issuer === null ? null : new SignInProvider(this, issuer),
      };
      const runners = new Crews(db, key.seed(), clock, {
        helloIntervalMs: config.runners.hello_interval_seconds * 1000,
        goneMs: config.runners.gone_seconds * 1000,
        waitMinutes: config.runners.wait_minutes,
      });
      this.crews = { runners, sheets: new CrewSheets(store.artifacts) };
      // Last: it uses every part above, so it stops before any of them closes.
      if (options.serving === true) this.review.schedule = parts.make(reviewSchedulePart, config, { house: this }).schedule;
    } catch (error) {
      // What was built closes in reverse, as after a maker that threw.
      void parts.abandon();
      throw error;
    }
  }

  /**
   * Opens the home's database, creating the genesis event and the main space on first start,
   * journaling where the home is placed when that is new (home-placed), and recording this
   * build as the home's newest reader.
   */
  static open(paths: HomePaths, config: GateConfig, options: GateOptions = {}): Gate {
    const gate = new Gate(paths, config, options);
    try {
      gate.start(paths, config);
    } catch (error) {
      // The parts built close in reverse, as a failed build closes them (PartList.abandon).
      void gate.parts.abandon();
      throw error;
    }
    return gate;
  }

  /** Journals what a first start or a new placement owes, then starts the parts that follow the journal. */
  private start(paths: HomePaths, config: GateConfig): void {
    const { journal } = this.store;
    const placed = this.placement;
    this.db.transaction(() => {
      if (journal.chainHead.seq === 0) {
        journal.append('deployment-created', null, { deployment_id: this.deployment.deploymentId, service: 'gate' });
        journal.append('space-created', null, {
          space: 'main',
          owner: 'operator',
          policy: config.spaces.main_policy,
        });
      }
      if (placed !== null) recordPlace(this.db, { ...placed.place, seq: journal.append('home-placed', null, placed.data).seq });
      recordBuild(this.db);
    })();
    this.walSync?.committed();
    if (placed !== null) {
      rmSync(paths.restoredFrom, { force: true });
      const where = `${placed.place.path} on host ${placed.place.host}`;
      if (placed.data['reason'] === 'takeover') this.log.warn(`this home is the gate from now on (--takeover, journaled): placed at ${where}, where it was placed at ${(placed.data['previous'] as { path: string }).path} before`);
      else if (placed.data['reason'] === 'restored') this.log.info(`journaled the restore of this home from a backup; placed at ${where}`);
    }
    this.recall.heldText.start();
    this.pipeline.embed.start();
    this.detection?.start(this);
    this.pipeline.uploadRecovery = recoverUploads(this);
    this.review.schedule?.start();
  }

  /**
   * Where the doors listen, once they do (`gate serve`): gv.ping reports it and the sign-in
   * provider's pages link to it. The port is known only once the HTTP surface listens.
   */
  listening(at: { http: string; socket: string }): void {
    this.endpoints.http = at.http;
    this.endpoints.socket = at.socket;
  }

  /** The parts with a life, in the order they were built (close() goes through them in reverse). */
  get partNames(): string[] {
    return this.parts.names;
  }

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
    const closing = this.parts.step;
    if (closing !== null) return [{ reason: 'stopping', detail: `the gate is closing: ${closing}` }];
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
   * Closes every part in the reverse of the order it was built, one awaited close at a time
   * (src/part-list.ts): the schedule and the long reads first, then the pools, which drain
   * into the writer, then the writer, the threads, the database and the WAL sync. Every
   * thread is gone before the connection closes, so nothing of ours runs in native code
   * when the process ends.
   */
  close(): Promise<void> {
    return this.parts.close();
  }
}
