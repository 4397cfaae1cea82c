import Database from 'better-sqlite3';
import { Capabilities } from './access/capabilities.js';
import { Visibility } from './access/visibility.js';
import { systemClock, type Clock } from './clock.js';
import type { GateConfig } from './config/keys.js';
import type { HomePaths } from './config/home.js';
import { CursorSealer } from './journal/cursor.js';
import { DeploymentKey } from './journal/deployment-key.js';
import { JournalWriter } from './journal/group-commit.js';
import { Journal } from './journal/journal.js';
import { createJournalSchema } from './journal/schema.js';
import { ArtifactReads, type ArtifactRow } from './projections/artifact-reads.js';
import { RelationReads } from './projections/relation-reads.js';
import type { Caller } from './access/caller.js';
import { Projections } from './projections/projections.js';
import { replayJournal } from './projections/rebuild.js';
import { VIEW_SCHEMA_VERSION, dropViews, markViewsCurrent, viewsAreCurrent } from './projections/view-version.js';
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
import { createLog, type Log } from './log.js';

export const SERVICE_VERSION = '0.1.0';

export interface GateOptions {
  clock?: Clock;
  log?: Log;
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
  readonly projections: Projections;
  readonly capabilities: Capabilities;
  readonly visibility: Visibility;
  readonly artifacts: ArtifactReads;
  readonly relations: RelationReads;
  readonly lexical: LexicalRecall;
  readonly rankedSearch: RankedSearch;
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
  private readonly spaceList: Database.Statement;
  /** Where the surfaces listen, once they do (reported by gv.ping). */
  readonly endpoints: { http?: string; socket?: string } = {};

  private constructor(
    readonly paths: HomePaths,
    readonly config: GateConfig,
    options: GateOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? createLog();
    this.key = DeploymentKey.openOrCreate(paths.key);
    this.db = new Database(paths.db);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${config.journal.synchronous.toUpperCase()}`);
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma(`cache_size = -${config.journal.cache_mb * 1024}`);
    this.db.pragma(`mmap_size = ${config.journal.mmap_mb * 1024 * 1024}`);
    createJournalSchema(this.db);
    const replayViews = !viewsAreCurrent(this.db);
    if (replayViews) dropViews(this.db);
    this.projections = new Projections(this.db, 'main');
    if (replayViews) {
      const events = replayJournal(this.db, this.projections);
      markViewsCurrent(this.db);
      if (events > 0) this.log.info(`views rebuilt from ${events} journal events for view schema ${VIEW_SCHEMA_VERSION}`);
    }
    this.journal = new Journal(this.db, this.key, this.clock, (event) => this.projections.apply(event));
    this.writer = new JournalWriter(this.db, this.journal, {
      onListenerError: (error) => this.log.error('a commit listener failed', error),
      maxBatch: config.journal.batch_max,
      windowMs: config.journal.commit_window_ms,
    });
    this.capabilities = new Capabilities(this.db, config.access.open_spaces);
    this.visibility = new Visibility(this.capabilities);
    this.artifacts = new ArtifactReads(this.db);
    this.relations = new RelationReads(this.db);
    this.spaceList = this.db.prepare('SELECT name FROM spaces ORDER BY name');
    this.lexical = new LexicalRecall(this.db, this.artifacts);
    this.steering = new SteeringWalk(this.db, this.artifacts);
    this.cursors = new CursorSealer(this.key.seed());
    this.verbs = new Map(VERBS.map((v) => [v.name, v as Verb]));
    this.scan = new ScanStage({
      threads: config.scan.threads,
      batchMax: config.scan.batch_max,
      queueMax: config.quarantine.scan_queue,
    });
    const backend = embedBackend(config.embed);
    const vectorIndex = new VectorIndex(this.db, backendLabel(backend), backendDims(backend), this.log);
    const partitionCodes = new PartitionCodes(vectorIndex, this.log);
    this.embed = new EmbedStage(this.db, vectorIndex, partitionCodes, this.writer, this.log, {
      backend,
      threads: config.embed.threads,
      batchMax: config.embed.batch_max,
    });
    this.vector = new VectorRecall(
      this.db,
      vectorIndex,
      partitionCodes,
      (text) => this.embed.embedQuery(text),
      () => this.embed.pending,
      (rowids) => this.embed.misplaced(rowids),
    );
    this.rankedSearch = new RankedSearch(this.lexical, this.vector, this.artifacts);
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
    }
    gate.embed.start();
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
    return (this.spaceList.all() as { name: string }[]).map((r) => r.name);
  }

  /** Drains the pipeline, commits what is queued and closes the database. */
  async close(): Promise<void> {
    await this.scan.close();
    await this.embed.close();
    this.writer.close();
    this.db.close();
  }
}
