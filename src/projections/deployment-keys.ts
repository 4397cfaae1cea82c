import type Database from 'better-sqlite3';
import { typesFoldedBy, type FoldedBy, type JournalEventOf } from '../journal/catalogue/catalogue.js';
import { KEY_ROTATED } from '../forms/signing-keys.js';

/**
 * The deployment's key rotations (`gate key rotate`): the seq of each and the key it hands
 * the signing to. The events themselves stay in the journal, which the reads take them from
 * verbatim: the chain of keys is proven from them and the deployment id alone
 * (docs/journal.md, "Rotating the deployment key").
 */
export function deploymentKeyTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.key_rotations (
      seq INTEGER PRIMARY KEY,
      key TEXT NOT NULL
    );
  `;
}

export const deploymentKeyDigestQueries = (schema: string) => ({
  key_rotations: `SELECT * FROM ${schema}.key_rotations ORDER BY seq`,
});

export class DeploymentKeyReducer {
  private readonly insert: Database.Statement;
  readonly handles = typesFoldedBy('deployment-keys');

  constructor(db: Database.Database, schema: string) {
    this.insert = db.prepare(`INSERT INTO ${schema}.key_rotations (seq, key) VALUES (?, ?)`);
  }

  apply(event: JournalEventOf<FoldedBy<'deployment-keys'>>): void {
    this.insert.run(event.seq, event.data['key']);
  }
}
