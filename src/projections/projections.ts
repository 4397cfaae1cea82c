import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { JournalEvent } from '../forms/event.js';
import type { AppendFollower } from '../journal/followers.js';
import type { EventType } from '../journal/catalogue/catalogue.js';
import { ArtifactReducer, artifactDigestQueries, artifactTables, type HeldRowsFollower } from './artifacts.js';
import { SpaceReducer, spaceDigestQueries, spaceTables } from './spaces.js';
import { GrantReducer, grantDigestQueries, grantTables } from './grants.js';
import { ApiKeyReducer, apiKeyDigestQueries, apiKeyTables } from './api-keys.js';
import { RelationReducer, relationDigestQueries, relationTables } from './relations.js';
import { RankReducer, rankDigestQueries, rankTables } from './ranks.js';
import { WorkareaReducer, workareaDigestQueries, workareaTables } from './workareas.js';
import { AttachmentReducer, attachmentDigestQueries, attachmentTables } from './attachments.js';
import { BodyReadReducer, bodyReadDigestQueries, bodyReadTables } from './body-reads.js';
import { ReplacementGroupReducer, replacementGroupDigestQueries, replacementGroupTables } from './replacement-groups.js';
import { SubmissionReducer, submissionDigestQueries, submissionTables } from './submissions.js';
import { ReviewReducer, reviewDigestQueries, reviewTables } from './review.js';
import { CommentReducer, commentDigestQueries, commentTables } from './comments.js';
import { AwayReducer, awayDigestQueries, awayTables } from './away.js';
import { PeopleReducer, peopleDigestQueries, peopleTables } from './people.js';
import { SigninSessionReducer, signinSessionDigestQueries, signinSessionTables } from './signin-sessions.js';
import { BanReducer, banDigestQueries, banTables } from './bans.js';
import { RunnerReducer, runnerDigestQueries, runnerTables } from './runners.js';
import { QuestionReducer, questionDigestQueries, questionTables } from './questions.js';
import { LogTreeReducer, logTreeDigestQueries, logTreeTables } from './log-tree.js';
import { CollectionReducer, collectionDigestQueries, collectionTables } from './collections.js';
import { DetectionReducer, detectionDigestQueries, detectionTables } from './detections.js';
import { DeploymentKeyReducer, deploymentKeyDigestQueries, deploymentKeyTables } from './deployment-keys.js';

interface Reducer {
  /** The types the catalogue has this view fold (typesFoldedBy). */
  readonly handles: readonly EventType[];
  /** `next`: the event appended right after this one in the same journal call, when known (live only). */
  apply(event: JournalEvent, next?: JournalEvent): void;
}

export function createProjectionTables(db: Database.Database, schema: string): void {
  const tables = [
    artifactTables,
    spaceTables,
    grantTables,
    apiKeyTables,
    relationTables,
    rankTables,
    workareaTables,
    replacementGroupTables,
    submissionTables,
    reviewTables,
    commentTables,
    awayTables,
    peopleTables,
    signinSessionTables,
    attachmentTables,
    bodyReadTables,
    banTables,
    runnerTables,
    questionTables,
    logTreeTables,
    collectionTables,
    detectionTables,
    deploymentKeyTables,
  ];
  db.exec(tables.map((t) => t(schema)).join('\n'));
}

export function digestQueries(schema: string): Record<string, string> {
  return {
    ...artifactDigestQueries(schema),
    ...spaceDigestQueries(schema),
    ...grantDigestQueries(schema),
    ...apiKeyDigestQueries(schema),
    ...relationDigestQueries(schema),
    ...rankDigestQueries(schema),
    ...workareaDigestQueries(schema),
    ...replacementGroupDigestQueries(schema),
    ...submissionDigestQueries(schema),
    ...reviewDigestQueries(schema),
    ...commentDigestQueries(schema),
    ...awayDigestQueries(schema),
    ...peopleDigestQueries(schema),
    ...signinSessionDigestQueries(schema),
    ...attachmentDigestQueries(schema),
    ...bodyReadDigestQueries(schema),
    ...banDigestQueries(schema),
    ...runnerDigestQueries(schema),
    ...questionDigestQueries(schema),
    ...logTreeDigestQueries(schema),
    ...collectionDigestQueries(schema),
    ...detectionDigestQueries(schema),
    ...deploymentKeyDigestQueries(schema),
  };
}

/**
 * Every view of the gate, folded from the journal. The same class runs live (schema
 * `main`, inside the append transaction) and in rebuild (a fresh attached schema).
 * Events of types no view reads (the genesis event, for one) reach only the log tree.
 */
export class Projections implements AppendFollower {
  private readonly byType = new Map<string, Reducer[]>();
  /** The journal's Merkle tree takes every event, whatever its type. */
  private readonly logTree: LogTreeReducer;

  private readonly artifacts: ArtifactReducer;

  constructor(db: Database.Database, schema: string) {
    createProjectionTables(db, schema);
    this.artifacts = new ArtifactReducer(db, schema);
    const reducers: Reducer[] = [
      this.artifacts,
      new SpaceReducer(db, schema),
      new GrantReducer(db, schema),
      new ApiKeyReducer(db, schema),
      new RelationReducer(db, schema),
      new RankReducer(db, schema),
      new WorkareaReducer(db, schema),
      new ReplacementGroupReducer(db, schema),
      new SubmissionReducer(db, schema),
      new ReviewReducer(db, schema),
      new CommentReducer(db, schema),
      new AwayReducer(db, schema),
      new PeopleReducer(db, schema),
      new SigninSessionReducer(db, schema),
      new AttachmentReducer(db, schema),
      new BodyReadReducer(db, schema),
      new BanReducer(db, schema),
      new RunnerReducer(db, schema),
      new QuestionReducer(db, schema),
      new CollectionReducer(db, schema),
      new DetectionReducer(db, schema),
      new DeploymentKeyReducer(db, schema),
    ];
    for (const reducer of reducers) {
      for (const type of reducer.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), reducer]);
    }
    this.logTree = new LogTreeReducer(db, schema);
  }

  /** The live views tell `follower` (the held index, written after each commit) of rows entering or leaving L1_SCANNED. */
  followHeldRows(follower: HeldRowsFollower): void {
    this.artifacts.heldRows.push(follower);
  }

  /**
   * Several views may fold one event (an ingest both adds a row and brings its work area into
   * being), in registry order. `next` lets a view fold two events at once (a replay, which
   * does not give it, folds them one by one into the same views).
   */
  apply(event: JournalEvent, next?: JournalEvent): void {
    this.logTree.apply(event);
    for (const reducer of this.byType.get(event.type) ?? []) reducer.apply(event, next);
  }
}

/** A digest per view table: sha256 over its rows in a fixed order. */
export function digestTables(db: Database.Database, schema: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [table, sql] of Object.entries(digestQueries(schema))) {
    const hash = createHash('sha256');
    for (const row of db.prepare(sql).raw().iterate() as IterableIterator<unknown[]>) {
      hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
      hash.update('\n');
    }
    out[table] = hash.digest('hex');
  }
  return out;
}
