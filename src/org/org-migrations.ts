import type { Pool } from 'pg';
import { MIGRATION_001 } from './migrations/001-inbox.js';
import { MIGRATION_002 } from './migrations/002-people.js';
import { MIGRATION_003 } from './migrations/003-second-person.js';
import { MIGRATION_004 } from './migrations/004-member-chains.js';

/** In order; a migration once applied is never edited, a change is a new one. */
export const MIGRATIONS: { name: string; sql: string }[] = [
  { name: '001-inbox', sql: MIGRATION_001 },
  { name: '002-people', sql: MIGRATION_002 },
  { name: '003-second-person', sql: MIGRATION_003 },
  { name: '004-member-chains', sql: MIGRATION_004 },
];

/** Any fixed number: every org process takes this lock, so two starting at once migrate once. */
const MIGRATION_LOCK = 0x6f7267;

export async function migrate(pool: Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS org_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM org_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.name)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO org_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
