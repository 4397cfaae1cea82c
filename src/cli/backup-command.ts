import Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { resolveHome } from '../config/home.js';
import { readHomeRecord } from '../store/home-record.js';
import { herePlace, samePlace } from '../store/home-place.js';
import { backupHome, restoreHome, verifyBackup } from './home-backup.js';

const fail = (command: string, error: unknown, code: number): never => {
  process.stderr.write(`gate ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(code);
};

/** `gate backup DEST`: a verified copy of the home, running or stopped. */
export async function backupCommand(dest: string, options: { home?: string }): Promise<void> {
  const paths = resolveHome(options.home);
  let made;
  try {
    made = await backupHome(paths, resolve(dest), (line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    return fail('backup', error, 1);
  }
  const { manifest, missing } = made;
  process.stdout.write(
    `backup of ${paths.home} in ${resolve(dest)}: verified; journal ${manifest.journal.events} events to seq ${manifest.journal.head_seq} ` +
      `(head ${manifest.journal.head_event_id ?? '-'}), ${manifest.objects.count} attachment objects, deployment ${manifest.deployment_id}\n`,
  );
  if (missing.length > 0) {
    process.stdout.write(`${missing.length} attachment objects the copy names were erased while it was made (a restore keeps those rows without their bytes): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}\n`);
  }
}

/** `gate backup verify DIR`: a backup checked again, as restore checks it. */
export function backupVerifyCommand(dir: string): void {
  const checked = verifyBackup(resolve(dir));
  if (!checked.ok) {
    process.stdout.write(`backup BAD: ${checked.problems.join('\n')}\n`);
    process.exit(1);
  }
  const m = checked.manifest!;
  process.stdout.write(`backup ok: made ${new Date(m.made_at).toISOString()} from ${m.from.path} on ${m.from.host}; journal ${m.journal.events} events to seq ${m.journal.head_seq}, ${m.objects.count} attachment objects\n`);
}

/** `gate restore SRC`: a new home from a verified backup; says whether its start needs --takeover. */
export function restoreCommand(src: string, options: { home?: string }): void {
  const paths = resolveHome(options.home);
  let manifest;
  try {
    manifest = restoreHome(resolve(src), paths);
  } catch (error) {
    return fail('restore', error, 1);
  }
  const db = new Database(paths.db, { readonly: true, fileMustExist: true });
  const place = readHomeRecord(db).place;
  db.close();
  const elsewhere = place !== null && !samePlace(place, herePlace(paths.home));
  const start = `gate serve --home ${paths.home}${elsewhere ? ' --takeover' : ''}`;
  process.stdout.write(
    `restored ${resolve(src)} into ${paths.home}: journal ${manifest.journal.events} events to seq ${manifest.journal.head_seq}, made ${new Date(manifest.made_at).toISOString()}.\n` +
      (elsewhere
        ? `The backup's home lived at ${place.path} on ${place.host}: this is a copy elsewhere. If that gate is gone for good, start it as the gate: ${start}\n` +
          'Never while the original still runs: both would sign under one deployment (docs/operations.md, "Backup and restore").\n'
        : `It lives where the backup's home did; the first start journals the restore: ${start}\n`),
  );
}
