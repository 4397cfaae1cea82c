import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { KEY_ROTATED } from '../forms/signing-keys.js';
import { DeploymentKeyReads } from './deployment-key-reads.js';
import { defineView } from './define-view.js';

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

  constructor(db: Database.Database, schema: string) {
    this.insert = db.prepare(`INSERT INTO ${schema}.key_rotations (seq, key) VALUES (?, ?)`);
  }

  apply(event: JournalEventOf<FoldedBy<'deployment-keys'>>): void {
    this.insert.run(event.seq, event.data['key']);
  }
}

/** The deployment keys view: the genesis and the key rotations. */
export const deploymentKeyView = defineView({
  name: 'deployment-keys',
  tables: deploymentKeyTables,
  digest: deploymentKeyDigestQueries,
  reducer: (db, schema) => new DeploymentKeyReducer(db, schema),
  reads: {
    /** The deployment's genesis and its key rotations, verbatim. */
    deploymentKeys: ({ db }) => new DeploymentKeyReads(db),
  },
});
