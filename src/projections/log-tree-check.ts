import type Database from 'better-sqlite3';
import type { ChainReport } from '../journal/verify-chain.js';
import { MerkleFrontier } from '../forms/merkle-frontier.js';
import { eventLeafHash } from '../forms/merkle-hash.js';
import { nodePosition } from './log-tree-position.js';

export type TreeCheck = { tree: 'agrees' | 'absent' } | { tree: 'differs'; problem: string };

/**
 * Whether the stored log tree (what proofs are made from) holds exactly the nodes the
 * journal's ids give when the tree is grown again from scratch: every node, not only the
 * root, since a proof reads nodes at every level. A home whose views predate the tree has
 * none yet (its next start builds it): `absent`, which is no fault of the journal.
 */
export function checkStoredTree(db: Database.Database, report: ChainReport): TreeCheck {
  if (!report.ok || report.events === 0) return { tree: 'agrees' };
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'log_tree'").get();
  if (table === undefined) return { tree: 'absent' };
  const stored = db.prepare<[number], Buffer>('SELECT hash FROM log_tree WHERE pos = ?').pluck();
  const frontier = new MerkleFrontier();
  let problem: string | null = null;
  let nodes = 0;
  const ids = db.prepare<[number], string>('SELECT event_id FROM journal WHERE seq <= ? ORDER BY seq').pluck();
  for (const id of ids.iterate(report.events)) {
    frontier.push(eventLeafHash(id), (level, idx, hash) => {
      nodes += 1;
      if (problem !== null) return;
      const kept = stored.get(nodePosition(level, idx));
      if (kept === undefined) problem = `the stored log tree lacks node (${level}, ${idx})`;
      else if (!kept.equals(hash)) problem = `the stored log tree's node (${level}, ${idx}) differs from the journal's`;
    });
  }
  if (problem !== null) return { tree: 'differs', problem };
  const count = db.prepare('SELECT COUNT(*) FROM log_tree').pluck().get() as number;
  if (count !== nodes) return { tree: 'differs', problem: `the stored log tree holds ${count} nodes where ${report.events} events make ${nodes}` };
  if (frontier.root().toString('base64') !== report.root) return { tree: 'differs', problem: 'the log tree grown again has another root than the chain walk' };
  return { tree: 'agrees' };
}

/** A chain report with the tree's verdict folded in: a differing tree fails it. */
export function withTreeCheck(report: ChainReport, check: TreeCheck) {
  return check.tree === 'differs' ? { ...report, ok: false, tree: check.tree, problem: check.problem } : { ...report, tree: check.tree };
}
