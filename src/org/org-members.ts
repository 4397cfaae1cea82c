import type { Pool } from 'pg';
import { mintApiKey } from '../credentials/api-keys.js';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import { inTransaction } from './org-database.js';
import { ed25519KeyTextProblem } from '../forms/strict-ed25519.js';
import { appendOrgLog } from './org-log.js';

export type OrgScope = 'submit' | 'review' | 'admin';

/** A deployment id is the base64url of a raw Ed25519 public key: 43 characters. */
export const DEPLOYMENT_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Registers a member gate and issues its submit key in one transaction, both in the org's
 * log. A member registered before gets a new key (the old ones stay valid until revoked).
 */
export async function addMember(pool: Pool, key: DeploymentKey, deploymentId: string, label: string, by: string) {
  if (!DEPLOYMENT_ID_PATTERN.test(deploymentId)) throw new Error('a deployment id is 43 base64url characters (a gate prints it at start: "deployment <id>")');
  const problem = ed25519KeyTextProblem(deploymentId);
  if (problem !== null) throw new Error(`a deployment id is an Ed25519 public key, and this one is refused: ${problem}`);
  const minted = mintApiKey();
  await inTransaction(pool, async (client) => {
    const had = await client.query('SELECT revoked_at FROM members WHERE deployment_id = $1 FOR UPDATE', [deploymentId]);
    if (had.rowCount === 0) {
      await client.query('INSERT INTO members (deployment_id, label) VALUES ($1, $2)', [deploymentId, label]);
      await appendOrgLog(client, key, 'member-added', by, { deployment_id: deploymentId, label });
    } else {
      await client.query('UPDATE members SET revoked_at = NULL, label = $2 WHERE deployment_id = $1', [deploymentId, label]);
    }
    await client.query("INSERT INTO org_keys (key_hash, key_id, scope, deployment_id, label) VALUES ($1, $2, 'submit', $3, $4)", [
      minted.hash,
      minted.keyId,
      deploymentId,
      label,
    ]);
    await appendOrgLog(client, key, 'apikey-issued', by, { key_hash: minted.hash, scope: 'submit', deployment_id: deploymentId, label });
  });
  return { deployment_id: deploymentId, label, key: minted.raw, key_id: minted.keyId };
}

/** A key for the org's own people: review (the inbox and gv.org_review) or admin. */
export async function issueStaffKey(pool: Pool, key: DeploymentKey, scope: 'review' | 'admin', label: string, by: string) {
  const minted = mintApiKey();
  await inTransaction(pool, async (client) => {
    await client.query('INSERT INTO org_keys (key_hash, key_id, scope, label) VALUES ($1, $2, $3, $4)', [minted.hash, minted.keyId, scope, label]);
    await appendOrgLog(client, key, 'apikey-issued', by, { key_hash: minted.hash, scope, label });
  });
  return { scope, label, key: minted.raw, key_id: minted.keyId };
}

/** Revoking a member revokes every key it holds: its next request is refused (403). */
export async function revokeMember(pool: Pool, key: DeploymentKey, deploymentId: string, by: string): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const done = await client.query('UPDATE members SET revoked_at = now() WHERE deployment_id = $1 AND revoked_at IS NULL', [deploymentId]);
    if (done.rowCount === 0) return false;
    await client.query('UPDATE org_keys SET revoked_at = now() WHERE deployment_id = $1 AND revoked_at IS NULL', [deploymentId]);
    await appendOrgLog(client, key, 'member-revoked', by, { deployment_id: deploymentId });
    return true;
  });
}

export async function listMembers(pool: Pool) {
  const rows = await pool.query<{ deployment_id: string; label: string; added_at: Date; revoked_at: Date | null; keys: string; fork_seq: string | null; forked_at: Date | null }>(
    `SELECT m.deployment_id, m.label, m.added_at, m.revoked_at,
            (SELECT count(*) FROM org_keys k WHERE k.deployment_id = m.deployment_id AND k.revoked_at IS NULL) AS keys,
            f.seq AS fork_seq, f.seen_at AS forked_at
       FROM members m
       LEFT JOIN LATERAL (SELECT seq, seen_at FROM member_forks WHERE deployment_id = m.deployment_id ORDER BY seen_at, seq LIMIT 1) f ON true
      ORDER BY m.added_at, m.deployment_id`,
  );
  return rows.rows.map((r) => ({
    deployment_id: r.deployment_id,
    label: r.label,
    added_at: r.added_at.toISOString(),
    revoked: r.revoked_at !== null,
    live_keys: Number(r.keys),
    // Two chains seen under this deployment (member-chains.ts): the first seq where they parted.
    forked: r.fork_seq === null ? null : { seq: Number(r.fork_seq), seen_at: r.forked_at!.toISOString() },
  }));
}
