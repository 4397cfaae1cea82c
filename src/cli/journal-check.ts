import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { verifyChain } from '../journal/verify-chain.js';
import { DeploymentKey } from '../credentials/deployment-key.js';
import { checkStoredTree, withTreeCheck } from '../projections/log-tree-check.js';

/**
 * The chain and the stored tree of one journal. The chain is proven from its genesis (or the
 * deployment id given); a key file beside it must be the key that signs the journal now (the
 * genesis key, or the last rotation's), so a journal signed by another deployment fails.
 */
export function verifyJournal(db: Database.Database, keyFile: string | null, deploymentId: string | undefined) {
  const chain = verifyChain(db, deploymentId);
  const report = withTreeCheck(chain, checkStoredTree(db, chain));
  if (report.ok && keyFile !== null && existsSync(keyFile)) {
    const held = DeploymentKey.openOrCreate(keyFile).deploymentId;
    const signing = chain.keys.at(-1)?.key;
    if (signing !== undefined && held !== signing) {
      return { ...report, ok: false, problem: `${keyFile} holds key ${held}, but the journal is signed by ${signing} from its last event on` };
    }
  }
  return report;
}

export type JournalCheck = ReturnType<typeof verifyJournal>;
