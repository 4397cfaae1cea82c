import pg from 'pg';
import { startEmbedded, stopEmbedded } from './embedded-postgres.js';
import { migrate } from './org-migrations.js';

export interface OrgDatabase {
  pool: pg.Pool;
  /** [org].replica_url's pool, for GET /outcomes only; null when none is configured. */
  replica: pg.Pool | null;
  /** Closes the pool; stops the embedded server only when this process started it. */
  close(): Promise<void>;
}

/**
 * The org's database: the server the URL names, else the home's embedded PostgreSQL
 * (started here unless another org process of the same home already runs it). Migrations
 * are applied before anything else touches it.
 */
export async function openOrgDatabase(home: string, databaseUrl: string, poolSize = 20, replicaUrl = ''): Promise<OrgDatabase> {
  let started = false;
  let pool: pg.Pool;
  if (databaseUrl !== '') {
    pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  } else {
    const embedded = startEmbedded(home);
    started = embedded.started;
    pool = new pg.Pool({ ...embedded.connection, max: poolSize });
  }
  // An idle client's error (the server restarting) must not take the process down; the next query reports it.
  pool.on('error', () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    if (started) stopEmbedded(home);
    throw error;
  }
  // A replica is read only: nothing migrates or claims it, and it is connected lazily, so a replica down at start stops nothing.
  const replica = replicaUrl === '' ? null : new pg.Pool({ connectionString: replicaUrl, max: poolSize, connectionTimeoutMillis: 2_000 });
  replica?.on('error', () => undefined);
  return {
    pool,
    replica,
    async close() {
      await replica?.end();
      await pool.end();
      if (started) stopEmbedded(home);
    },
  };
}

/** One transaction: every write of the org gate goes through here. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
