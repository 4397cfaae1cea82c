import type Database from 'better-sqlite3';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const vaultKey = (deploymentSeed: Buffer) => Buffer.from(hkdfSync('sha256', deploymentSeed, Buffer.alloc(0), 'gate.runner-token/1', 32));

function sealWith(key: Buffer, aad: Buffer, token: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/**
 * Sealed runner tokens (docs/protocol.md#gvrunner_token_set): AES-256-GCM under a key derived
 * from the deployment key, bound to the runner and version, in a table of gate.db that is
 * no projection (the journal records that a token was set, never the token). A token is
 * deleted from here in the transaction that journals its serving; what stays is the
 * runner's acknowledgement of it, reported by a hello.
 */
export class TokenVault {
  private readonly key: Buffer;
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, deploymentSeed: Buffer) {
    this.key = vaultKey(deploymentSeed);
    db.exec(`CREATE TABLE IF NOT EXISTS runner_token_vault (
      runner TEXT PRIMARY KEY,
      version INTEGER NOT NULL,
      sealed BLOB,
      acked_ts INTEGER
    ) WITHOUT ROWID`);
    this.s = {
      put: db.prepare(
        `INSERT INTO runner_token_vault (runner, version, sealed, acked_ts) VALUES (?, ?, ?, NULL)
         ON CONFLICT(runner) DO UPDATE SET version = excluded.version, sealed = excluded.sealed, acked_ts = NULL`,
      ),
      get: db.prepare('SELECT version, sealed, acked_ts FROM runner_token_vault WHERE runner = ?'),
      forget: db.prepare('UPDATE runner_token_vault SET sealed = NULL WHERE runner = ?'),
      remove: db.prepare('DELETE FROM runner_token_vault WHERE runner = ?'),
      ack: db.prepare('UPDATE runner_token_vault SET acked_ts = ? WHERE runner = ? AND version = ? AND acked_ts IS NULL'),
      waiting: db.prepare('SELECT runner, version FROM runner_token_vault WHERE sealed IS NOT NULL'),
    };
  }

  /**
   * Seals every token still waiting under the key a rotated deployment key derives (`gate key
   * rotate`, inside the rotation's write), so the runners are served them as before. A token
   * that no longer opens stays as it is: it was unreadable already.
   */
  resealFor(newSeed: Buffer): number {
    const next = vaultKey(newSeed);
    let resealed = 0;
    for (const { runner, version } of this.s.waiting!.all() as Array<{ runner: string; version: number }>) {
      const opened = this.open(runner, version);
      if (opened === null || opened === 'unreadable') continue;
      this.s.put!.run(runner, version, sealWith(next, this.aad(runner, version), opened.token));
      resealed += 1;
    }
    return resealed;
  }

  private aad(runner: string, version: number): Buffer {
    return Buffer.from(`${runner}\u0000${version}`);
  }

  seal(runner: string, version: number, token: string): void {
    this.s.put!.run(runner, version, sealWith(this.key, this.aad(runner, version), token));
  }

  /** The sealed token, `unreadable` when its bytes do not open under this deployment's key, or null when none waits. */
  open(runner: string, version: number): { token: string } | 'unreadable' | null {
    const row = this.s.get!.get(runner) as { version: number; sealed: Buffer | null } | undefined;
    if (row === undefined || row.version !== version || row.sealed === null) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, row.sealed.subarray(0, 12));
      decipher.setAAD(this.aad(runner, version));
      decipher.setAuthTag(row.sealed.subarray(12, 28));
      return { token: Buffer.concat([decipher.update(row.sealed.subarray(28)), decipher.final()]).toString('utf8') };
    } catch {
      return 'unreadable';
    }
  }

  /** Once served, the gate keeps no copy. */
  forget(runner: string): void {
    this.s.forget!.run(runner);
  }

  clear(runner: string): void {
    this.s.remove!.run(runner);
  }

  acknowledge(runner: string, version: number, now: number): void {
    this.s.ack!.run(now, runner, version);
  }

  acknowledgedAt(runner: string, version: number): number | null {
    const row = this.s.get!.get(runner) as { version: number; acked_ts: number | null } | undefined;
    return row !== undefined && row.version === version ? row.acked_ts : null;
  }
}
