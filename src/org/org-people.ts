import type { Pool } from 'pg';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import { inTransaction } from './org-database.js';
import { appendOrgLog } from './org-log.js';

/** Roles a person holds at the organization: reader (nothing to decide), reviewer (the inbox), admin. */
export const ORG_PERSON_ROLES = ['reader', 'reviewer', 'admin'] as const;
export type OrgPersonRole = (typeof ORG_PERSON_ROLES)[number];

/** As the gate's gv.people says it: an issuer is a URL with no | and no white space, so `iss|sub` splits at the first |. */
export const ISSUER_PATTERN = /^[^|\s]+$/;

export interface OrgPerson {
  iss: string;
  sub: string;
  identity: string;
  role: OrgPersonRole;
  source: 'people' | 'config';
  assigned_by: string | null;
  assigned_at: string | null;
}

/**
 * Gives a signed-in person a role at the organization, journaled `person-assigned` in the
 * org's log. Assigning the role a person already holds changes nothing and logs nothing.
 */
export async function assignPerson(pool: Pool, key: DeploymentKey, iss: string, sub: string, role: OrgPersonRole, by: string) {
  if (!ISSUER_PATTERN.test(iss)) throw new Error('an issuer has no | and no white space (it is the URL the person signs in at)');
  if (sub === '') throw new Error('a subject is required');
  return inTransaction(pool, async (client) => {
    const had = (await client.query<{ role: string }>('SELECT role FROM org_people WHERE iss = $1 AND sub = $2 FOR UPDATE', [iss, sub])).rows[0];
    if (had?.role === role) return { identity: `${iss}|${sub}`, role, changed: false };
    await client.query(
      `INSERT INTO org_people (iss, sub, role, assigned_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (iss, sub) DO UPDATE SET role = $3, assigned_by = $4, assigned_at = now()`,
      [iss, sub, role, by],
    );
    await appendOrgLog(client, key, 'person-assigned', by, { iss, sub, role, ...(had ? { was: had.role } : {}) });
    return { identity: `${iss}|${sub}`, role, changed: true };
  });
}

/** Takes a person's role away (they are a reader again, or an admin by [auth].admins), journaled `person-removed`. */
export async function removePerson(pool: Pool, key: DeploymentKey, iss: string, sub: string, by: string): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const gone = await client.query<{ role: string }>('DELETE FROM org_people WHERE iss = $1 AND sub = $2 RETURNING role', [iss, sub]);
    if (gone.rowCount === 0) return false;
    await appendOrgLog(client, key, 'person-removed', by, { iss, sub, was: gone.rows[0]!.role });
    return true;
  });
}

/** The people table, then the config's admins it does not name (source `config`), as the gate's gv.people lists them. */
export async function listPeople(pool: Pool, admins: readonly string[]): Promise<OrgPerson[]> {
  const rows = await pool.query<{ iss: string; sub: string; role: OrgPersonRole; assigned_by: string; assigned_at: Date }>(
    'SELECT iss, sub, role, assigned_by, assigned_at FROM org_people ORDER BY iss, sub',
  );
  const listed: OrgPerson[] = rows.rows.map((r) => ({
    iss: r.iss,
    sub: r.sub,
    identity: `${r.iss}|${r.sub}`,
    role: r.role,
    source: 'people',
    assigned_by: r.assigned_by,
    assigned_at: r.assigned_at.toISOString(),
  }));
  const named = new Set(listed.map((p) => p.identity));
  const fromConfig = admins
    .filter((identity) => !named.has(identity))
    .map((identity): OrgPerson => {
      const cut = identity.indexOf('|');
      return { iss: identity.slice(0, cut), sub: identity.slice(cut + 1), identity, role: 'admin', source: 'config', assigned_by: null, assigned_at: null };
    });
  return [...listed, ...fromConfig];
}

/** A person's role: the people table's, else admin when [auth].admins names them, else reader (docs/protocol.md#credentials-and-roles). */
export async function roleOfPerson(pool: Pool, admins: readonly string[], iss: string, sub: string): Promise<OrgPersonRole> {
  const row = (await pool.query<{ role: OrgPersonRole }>('SELECT role FROM org_people WHERE iss = $1 AND sub = $2', [iss, sub])).rows[0];
  if (row) return row.role;
  return admins.includes(`${iss}|${sub}`) ? 'admin' : 'reader';
}
