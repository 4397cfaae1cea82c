import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type pg from 'pg';
import { loadConfig } from '../config/load-config.js';
import { DeploymentKey } from '../credentials/deployment-key.js';
import type { OrgContext } from './org-context.js';
import { openOrgDatabase, type OrgDatabase } from './org-database.js';
import { InboxSize } from './inbox-size.js';
import { OrgBearer } from './org-bearer.js';
import { SubmissionIntake } from './submission-intake.js';
import { MemberChains } from './member-chains.js';
import { DecisionBatch } from './org-decision.js';
import { SubmissionChecks } from './submission-checks.js';
import { OutcomesReader } from './outcomes-reader.js';
import { PersonsCopies } from './persons-copies.js';
import { PersonTokens } from '../credentials/person-tokens.js';
import { TrustedIssuers } from '../credentials/trusted-issuers.js';
import { systemClock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';
import { createLog } from '../log.js';
import type { LogLevel } from '../log-levels.js';

export interface OrgHomeOptions {
  home?: string;
  databaseUrl?: string;
  replicaUrl?: string;
  /** --log-level: wins over [log].level. */
  logLevel?: LogLevel;
}

/** Home: --home, else $GATE_ORG_HOME, else ~/.local/share/gate-org (never a gate's home: the org has its own key). */
export function resolveOrgHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env['GATE_ORG_HOME'] ?? join(homedir(), '.local', 'share', 'gate-org'));
}

/**
 * The org's key is its deployment id, and the database remembers the first one that served
 * it: a process with another key (a second org process given a fresh home instead of a
 * copy of the first one's deployment.key) is refused before it signs anything.
 */
async function claimDatabase(pool: pg.Pool, key: DeploymentKey): Promise<void> {
  await pool.query("INSERT INTO org_meta (key, value) VALUES ('deployment_id', $1) ON CONFLICT DO NOTHING", [key.deploymentId]);
  const owner = (await pool.query<{ value: string }>("SELECT value FROM org_meta WHERE key = 'deployment_id'")).rows[0]!.value;
  if (owner !== key.deploymentId) {
    throw new Error(`this database belongs to the org deployment ${owner}; this home's deployment.key is ${key.deploymentId} (copy the first org home's deployment.key to every org process)`);
  }
}

export interface OpenOrg extends OrgContext {
  home: string;
  database: OrgDatabase;
  /** [auth]: the issuers the org's people sign in at, the client id their tokens name, the admins by iss|sub. */
  auth: GateConfig['auth'];
}

/** An org home opened: config (gate.toml [org], GATE_ORG_*, flags), key, database migrated and claimed. */
export async function openOrg(options: OrgHomeOptions, poolSize?: number): Promise<OpenOrg> {
  const home = resolveOrgHome(options.home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const flags = {
    ...(options.databaseUrl === undefined ? {} : { 'org.database_url': options.databaseUrl }),
    ...(options.replicaUrl === undefined ? {} : { 'org.replica_url': options.replicaUrl }),
  };
  const { config } = loadConfig(join(home, 'gate.toml'), process.env, flags);
  const log = createLog({ level: options.logLevel ?? config.log.level, format: config.log.format });
  const issuers = trustedIssuers(config.auth);
  const tokens = issuers === null ? null : new PersonTokens(null, issuers, config.auth.client_id, systemClock);
  const key = DeploymentKey.openOrCreate(join(home, 'deployment.key'));
  const database = await openOrgDatabase(home, config.org.database_url, poolSize, config.org.replica_url);
  try {
    await claimDatabase(database.pool, key);
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    home,
    database,
    pool: database.pool,
    outcomesReader: new OutcomesReader(database.pool, database.replica, log),
    key,
    settings: config.org,
    trustedIssuers: config.auth.trusted_issuers,
    auth: config.auth,
    inbox: new InboxSize(database.pool, () => config.org.inbox_max),
    bearer: new OrgBearer(database.pool, tokens, config.auth.admins),
    checks: new SubmissionChecks(config.org.check_threads),
    intake: new SubmissionIntake(database.pool, () => config.org.member_rate_per_s),
    chains: new MemberChains(database.pool, key),
    decisions: new DecisionBatch(database.pool, key),
    copies: new PersonsCopies(),
    admins: config.auth.admins,
    signIn: { clientId: config.auth.client_id, issuers },
    log,
  };
}

/**
 * The organization signs nobody in: its people sign in at the issuers it trusts (the
 * company's provider, or a gate that is its own), and their tokens are checked by the gate's
 * own PersonTokens. None listed: person tokens are refused 401 unsupported.
 */
function trustedIssuers(auth: GateConfig['auth']): TrustedIssuers | null {
  if (auth.issuer !== '') {
    throw new Error('[auth].issuer: the organization gate is not a sign-in provider; list the issuer its people sign in at in [auth].trusted_issuers');
  }
  return auth.trusted_issuers.length === 0 ? null : new TrustedIssuers(auth.trusted_issuers);
}
