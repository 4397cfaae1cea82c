import type Database from 'better-sqlite3';
import type { Journal } from '../journal/journal.js';
import type { JournalWriter } from '../journal/group-commit.js';
import type { CursorSealer } from '../journal/cursor.js';
import type { WalCheckpointer } from '../journal/wal-checkpointer.js';
import { ArtifactReads } from '../projections/artifact-reads.js';
import { AwayReads } from '../projections/away-reads.js';
import { DetectionReads } from '../projections/detection-reads.js';
import { AttachmentReads } from '../projections/attachment-reads.js';
import { BanReads } from '../projections/ban-reads.js';
import { BodyReads } from '../projections/body-reads.js';
import { CollectionReads } from '../projections/collection-reads.js';
import { CommentReads } from '../projections/comment-reads.js';
import { ContentReferences } from '../projections/content-references.js';
import { JournalReads } from '../projections/journal-reads.js';
import { DeploymentKeyReads } from '../projections/deployment-key-reads.js';
import { LineageReads } from '../projections/lineage-reads.js';
import { LogTreeReads } from '../projections/log-tree-reads.js';
import { QuestionReads } from '../projections/question-reads.js';
import { RelationReads } from '../projections/relation-reads.js';
import { ReplacementGroupReads } from '../projections/replacement-group-reads.js';
import { ReviewReads } from '../projections/review-reads.js';
import { SPACE_EVENTS } from '../projections/spaces.js';
import { WorkareaReads } from '../projections/workarea-reads.js';
import { GrantReads } from '../projections/grant-reads.js';
import { PeopleReads } from '../projections/people-reads.js';
import { RankReads } from '../projections/rank-reads.js';
import { SpaceReads } from '../projections/space-reads.js';
import { rebuildAndCompare, type RebuildReport } from '../projections/rebuild.js';
import { reconcileSurfaces, type ReconcileReport } from '../projections/reconcile.js';
import { GraphReads } from '../projections/graph-reads.js';
import { VectorCodeReads } from '../projections/vector-code-reads.js';
import { ApiKeyReads } from '../projections/api-key-reads.js';
import { SigninSessionReads } from '../projections/signin-session-reads.js';
import { SubmissionReads } from '../projections/submission-reads.js';

/**
 * The store part: the one way to the journal and its views. Writes go through `writer`
 * (a journal write, grouped into commits) and `journal` (the appends inside one); every
 * read model of the views is a field here, made once with its prepared statements. The
 * database handle stays inside: no verb, surface or layer above reaches SQL but through
 * a read model (docs/architecture.md).
 */
export class Store {
  readonly artifacts: ArtifactReads;
  readonly relations: RelationReads;
  /** Roots and proofs of the journal's Merkle tree (checkpoints, inclusion, consistency). */
  readonly logTree: LogTreeReads;
  /** Published collections (gv.publish, gv.collection). */
  readonly collections: CollectionReads;
  readonly attachments: AttachmentReads;
  readonly bodyReads: BodyReads;
  /** Who still names stored bytes (an erasure removes only what no live row names). */
  readonly contentReferences: ContentReferences;
  readonly bans: BanReads;
  readonly comments: CommentReads;
  readonly questions: QuestionReads;
  readonly replacementGroups: ReplacementGroupReads;
  readonly reviews: ReviewReads;
  readonly workareas: WorkareaReads;
  /** A space's rows by work area, as gv.lineage draws them. */
  readonly lineage: LineageReads;
  /** The graph's rows with their labels (gv.graph). */
  readonly graph: GraphReads;
  /** Per-space capabilities of principals. */
  readonly grants: GrantReads;
  /** API keys: as credentials (by hash, by id for an agent's assertion) and as gv.keys lists them. */
  readonly apiKeys: ApiKeyReads;
  /** Roles assigned to signed-in people. */
  readonly people: PeopleReads;
  /** Refresh-token families of this gate's own sign-in issuer. */
  readonly signinSessions: SigninSessionReads;
  /** The operator's away periods (the human-review clocks stop while away). */
  readonly away: AwayReads;
  /** The injection detector's verdicts, and the rows owed one. */
  readonly detections: DetectionReads;
  readonly ranks: RankReads;
  readonly spaces: SpaceReads;
  /** Submissions to the organization gate. */
  readonly submissions: SubmissionReads;
  /** Which rows the vector index holds a code for. */
  readonly vectorCodes: VectorCodeReads;
  /** The deployment's genesis and its key rotations, verbatim. */
  readonly deploymentKeys: DeploymentKeyReads;
  /**
   * The journal table read as it stands, for what no view keeps: a row's events, an event by
   * seq or id, signed events verbatim, gv.events' pages, org outcomes, the chain walked.
   */
  readonly journalReads: JournalReads;
  /** For the whole-database checks (rebuildViews, reconcileSurfaces), which attach a scratch schema beside the views. */
  private readonly db: Database.Database;
  /** The space names, read again only once a space event is applied (requireSpace asks on every ingest). */
  private readonly spaceList: () => readonly string[];

  constructor(
    db: Database.Database,
    readonly journal: Journal,
    readonly writer: JournalWriter,
    /** Seals the cursors of paged answers to the identity they were given to. */
    readonly cursors: CursorSealer,
    private readonly checkpointer: WalCheckpointer,
  ) {
    this.artifacts = new ArtifactReads(db, journal.viewChanges);
    this.relations = new RelationReads(db);
    this.logTree = new LogTreeReads(db);
    this.collections = new CollectionReads(db);
    this.attachments = new AttachmentReads(db);
    this.bodyReads = new BodyReads(db);
    this.contentReferences = new ContentReferences(db);
    this.bans = new BanReads(db);
    this.comments = new CommentReads(db);
    this.questions = new QuestionReads(db);
    this.replacementGroups = new ReplacementGroupReads(db);
    this.reviews = new ReviewReads(db);
    this.workareas = new WorkareaReads(db);
    this.grants = new GrantReads(db);
    this.journalReads = new JournalReads(db);
    this.people = new PeopleReads(db);
    this.away = new AwayReads(db);
    this.detections = new DetectionReads(db);
    this.ranks = new RankReads(db);
    this.spaces = new SpaceReads(db);
    this.db = db;
    this.graph = new GraphReads(db);
    this.vectorCodes = new VectorCodeReads(db);
    this.deploymentKeys = new DeploymentKeyReads(db);
    this.apiKeys = new ApiKeyReads(db);
    this.signinSessions = new SigninSessionReads(db);
    this.submissions = new SubmissionReads(db);
    this.lineage = new LineageReads(db);
    const spaces = this.spaces;
    this.spaceList = journal.viewChanges.memo(SPACE_EVENTS, () => spaces.names());
  }

  /** Empties the WAL now (gv.erase: erased bytes leave the files); false while a reader holds it. */
  truncateWal(): boolean {
    return this.checkpointer.truncate();
  }

  spaceNames(): string[] {
    return [...this.spaceList()];
  }

  /**
   * Replays the journal into a scratch database at `scratchPath` and compares every view with
   * the live one (gv.rebuild); flush the writer first so the journal is settled.
   */
  rebuildViews(scratchPath: string): RebuildReport {
    return rebuildAndCompare(this.db, scratchPath);
  }

  /**
   * Replays the journal into a scratch database at `scratchPath` and puts each consumer
   * surface (recall index, hides, pins, tips, ranks) right against it (gv.reconcile).
   */
  reconcileSurfaces(scratchPath: string): ReconcileReport {
    return reconcileSurfaces(this.db, scratchPath);
  }
}
