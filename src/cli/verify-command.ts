import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveHome } from '../config/home.js';
import { compareChains, type ChainRelation } from '../journal/chain-compare.js';
import { verifyJournal, type JournalCheck as Report } from './journal-check.js';

interface Options {
  home?: string;
  json?: boolean;
  against?: string;
  deploymentId?: string;
}

/** A journal to verify: a home or a backup (a folder holding gate.db), or a gate.db itself. */
function journalFile(path: string): string {
  return existsSync(path) && statSync(path).isDirectory() ? join(path, 'gate.db') : path;
}

function chainText(report: Report): string {
  if (report.ok) {
    const types = Object.entries(report.types).map(([t, n]) => `${t} ${n}`).join(', ');
    const rotations = report.keys.length > 1 ? `signing keys: ${report.keys.map((k) => `${k.key} from seq ${k.from_seq}`).join(', ')}\n` : '';
    const tree = report.tree === 'agrees' ? 'the stored tree agrees' : 'no stored tree yet: the next start builds it';
    return (
      `journal ok: ${report.events} events, seq ${report.first_seq ?? '-'}..${report.last_seq ?? '-'}, head ${report.head ?? '-'}\n` +
      `deployment ${report.deployment_id ?? '-'}\n${rotations}log tree root ${report.root} over ${report.events} events (${tree})\n${types}\n`
    );
  }
  if (report.tree === 'differs') return `log tree BAD: ${report.problem}\n(the chain itself verified: ${report.events} events)\n`;
  if (report.first_bad_seq === undefined) return `journal BAD: ${report.problem}\n`;
  return `journal BAD at seq ${report.first_bad_seq}: ${report.problem}\n(${report.events} events verified before it)\n`;
}

function relationText(relation: ChainRelation, other: string): string {
  switch (relation.relation) {
    case 'identical':
      return `${other}: the same journal (${relation.events} events)\n`;
    case 'prefix':
      return relation.shorter === 'other'
        ? `${other}: an earlier copy of this journal (its ${relation.other_events} events are this one's first ${relation.common})\n`
        : `${other}: this journal goes on there (this one's ${relation.this_events} events are its first ${relation.common} of ${relation.other_events})\n`;
    case 'other_deployment':
      return `${other}: another deployment (${relation.other_deployment ?? 'no journal'}, this one is ${relation.this_deployment ?? 'empty'}): nothing to compare\n`;
    case 'forked':
      return (
        `FORK: two chains under one deployment. They agree up to seq ${relation.common}${relation.common_head === null ? '' : ` (${relation.common_head})`}; ` +
        `at seq ${relation.fork_seq} this journal holds ${relation.this_event}, ${other} holds ${relation.other_event} ` +
        `(this one ${relation.this_events} events, the other ${relation.other_events}).\n` +
        'Both were signed by this deployment: a copy of the home ran beside its original, or an older copy was restored or taken over while the original still ran. ' +
        'Keep one (docs/operations.md, "Two chains under one deployment").\n'
      );
  }
}

export function verifyCommand(options: Options): void {
  const paths = resolveHome(options.home);
  if (!existsSync(paths.db)) {
    process.stderr.write(`gate verify: no journal at ${paths.db}\n`);
    process.exit(2);
  }
  const otherFile = options.against === undefined ? null : journalFile(options.against);
  if (otherFile !== null && !existsSync(otherFile)) {
    process.stderr.write(`gate verify: no journal at ${otherFile}\n`);
    process.exit(2);
  }
  const db = new Database(paths.db, { readonly: true, fileMustExist: true });
  const report = verifyJournal(db, paths.key, options.deploymentId);
  let against: { path: string; report: Report; relation: ChainRelation | null } | null = null;
  if (otherFile !== null) {
    const other = new Database(otherFile, { readonly: true, fileMustExist: true });
    const otherReport = verifyJournal(other, null, options.deploymentId);
    against = { path: otherFile, report: otherReport, relation: report.ok && otherReport.ok ? compareChains(db, other) : null };
    other.close();
  }
  db.close();
  const forked = against?.relation?.relation === 'forked';
  const ok = report.ok && (against === null || (against.report.ok && !forked));
  if (options.json) {
    process.stdout.write(`${JSON.stringify(against === null ? report : { ...report, ok, against }, null, 2)}\n`);
  } else {
    process.stdout.write(chainText(report));
    if (against !== null) {
      if (!against.report.ok) process.stdout.write(`${against.path}: ${chainText(against.report)}`);
      if (against.relation !== null) process.stdout.write(relationText(against.relation, against.path));
    }
  }
  process.exit(ok ? 0 : 1);
}
