import type Database from 'better-sqlite3';
import type { RotationRecord } from '../forms/signing-keys.js';

/** The deployment's genesis and its key rotations, read where the start and the answers that carry them need them. */
export class DeploymentKeyReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    this.s = {
      genesis: db.prepare('SELECT body FROM journal WHERE seq = 1').pluck(),
      rotations: db.prepare('SELECT j.seq, j.event_id, j.body, j.sig FROM key_rotations k JOIN journal j ON j.seq = k.seq ORDER BY k.seq'),
    };
  }

  /** The deployment id the genesis event names, or null for a home with no journal yet. */
  deploymentId(): string | null {
    const body = this.s.genesis!.get() as string | undefined;
    if (body === undefined) return null;
    const id = (JSON.parse(body) as { data?: { deployment_id?: unknown } }).data?.deployment_id;
    return typeof id === 'string' ? id : null;
  }

  /** Every key-rotated event as journaled, in order. */
  rotations(): RotationRecord[] {
    return this.s.rotations!.all() as RotationRecord[];
  }
}
