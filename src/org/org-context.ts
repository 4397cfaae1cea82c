import type { Pool } from 'pg';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import type { GateConfig } from '../config/keys.js';
import type { InboxSize } from './inbox-size.js';
import type { OrgBearer } from './org-bearer.js';
import type { SubmissionIntake } from './submission-intake.js';
import type { MemberChains } from './member-chains.js';
import type { DecisionBatch } from './org-decision.js';
import type { SubmissionChecks } from './submission-checks.js';
import type { OutcomesReader } from './outcomes-reader.js';
import type { PersonsCopies } from './persons-copies.js';
import type { TrustedIssuers } from '../credentials/trusted-issuers.js';
import type { Log } from '../log.js';

/** What every door of one org process reads: the shared database, the org key and the [org] config. Nothing else. */
export interface OrgContext {
  pool: Pool;
  key: DeploymentKey;
  /** Where GET /outcomes reads: [org].replica_url when set (the primary when it cannot answer), else the primary. */
  outcomesReader: OutcomesReader;
  settings: GateConfig['org'];
  /** [auth].trusted_issuers: where the org's people sign in, said at GET /health so a command can find it before it has a token. */
  trustedIssuers: readonly string[];
  /** This process's view of the inbox's size (a read of the database, see inbox-size.ts). */
  inbox: InboxSize;
  /** Who a bearer is: org keys in the database, person tokens of the issuers [auth].trusted_issuers lists. */
  bearer: OrgBearer;
  /** PUT /submissions' body checks, in a worker pool. */
  checks: SubmissionChecks;
  /** PUT /submissions' rate counts and inserts, grouped into one statement per batch. */
  intake: SubmissionIntake;
  /** Each member's journal as its submissions showed it: one deployment with two chains is refused and journaled. */
  chains: MemberChains;
  /** Reviewers' decisions, grouped into one transaction per batch. */
  decisions: DecisionBatch;
  /** Decoded, scanned and masked copies of submissions for people to read (a worker thread). */
  copies: PersonsCopies;
  /** [auth].admins (iss|sub): people who are admins while the people table names no role for them. */
  admins: readonly string[];
  /** Where the org's console signs its people in: [auth].client_id at the issuers [auth].trusted_issuers lists (null: none). */
  signIn: { clientId: string; issuers: TrustedIssuers | null };
  /** The process's log (src/log.ts, as the gate's): a line a request, one for every decision; never a key, token, email or content. */
  log: Log;
}
