import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import { verifyChain } from '../journal/verify-chain.js';
import { DeploymentKey } from '../journal/deployment-key.js';
import { checkStoredTree, withTreeCheck } from '../projections/log-tree-check.js';

export function verifyCommand(options: { home?: string; json?: boolean }): void {
  const paths = resolveHome(options.home);
  if (!existsSync(paths.db)) {
    process.stderr.write(`gate verify: no journal at ${paths.db}\n`);
    process.exit(2);
  }
  // The key file, when present, pins the deployment: a journal signed by another key fails.
  const expected = existsSync(paths.key) ? DeploymentKey.openOrCreate(paths.key).deploymentId : undefined;
  const db = new Database(paths.db, { readonly: true, fileMustExist: true });
  const chain = verifyChain(db, expected);
  const tree = checkStoredTree(db, chain);
  db.close();
  const report = withTreeCheck(chain, tree);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else if (report.ok) {
    const types = Object.entries(report.types).map(([t, n]) => `${t} ${n}`).join(', ');
    process.stdout.write(
      `journal ok: ${report.events} events, seq ${report.first_seq ?? '-'}..${report.last_seq ?? '-'}, head ${report.head ?? '-'}\n` +
        `deployment ${report.deployment_id ?? '-'}\nlog tree root ${report.root} over ${report.events} events (${tree.tree === 'agrees' ? 'the stored tree agrees' : 'no stored tree yet: the next start builds it'})\n${types}\n`,
    );
  } else if (tree.tree === 'differs') {
    process.stdout.write(`log tree BAD: ${tree.problem}\n(the chain itself verified: ${report.events} events)\n`);
  } else {
    process.stdout.write(`journal BAD at seq ${report.first_bad_seq}: ${report.problem}\n(${report.events} events verified before it)\n`);
  }
  process.exit(report.ok ? 0 : 1);
}
