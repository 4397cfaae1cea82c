import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import { postgresBinDir } from './postgres-binaries.js';

/** Where an org home keeps its embedded PostgreSQL: the cluster and the directory of its Unix socket. */
export interface EmbeddedPaths {
  data: string;
  socketDir: string;
  log: string;
}

export const embeddedPaths = (home: string): EmbeddedPaths => ({
  data: join(home, 'pg', 'data'),
  socketDir: join(home, 'pg', 'run'),
  log: join(home, 'pg', 'postgres.log'),
});

/**
 * PostgreSQL refuses to run as root, so a root process runs the server as the `postgres`
 * account Debian's package creates (and gives it the cluster); anyone else runs it as itself.
 */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const found = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error('running as root needs the postgres account to run the embedded PostgreSQL (apt-get install -y postgresql creates it)');
  return { uid: Number(found.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Runs one of the machine's PostgreSQL programs (initdb, pg_ctl, pg_basebackup) as the
 * account the embedded cluster runs as: the postgres account under root, else this one.
 */
export function runPostgresProgram(bin: string, args: string[]): void {
  run(bin, args, runAs());
}

/** Gives a directory to the account the embedded cluster runs as (a no-op unless root). */
export function giveToPostgres(dir: string): void {
  const as = runAs();
  if (as) chownSync(dir, as.uid, as.gid);
}

function run(bin: string, args: string[], as: { uid: number; gid: number } | null): void {
  const done = spawnSync(join(postgresBinDir(), bin), args, { encoding: 'utf8', ...(as ?? {}), env: { ...process.env, LC_ALL: 'C' } });
  if (done.status !== 0) {
    const hint = as ? ' (run as the postgres account: every directory above the org home must let it through, e.g. chmod o+x)' : '';
    throw new Error(`${bin} ${args.join(' ')} failed (exit ${done.status ?? done.signal})${hint}: ${(done.stderr || done.stdout).trim().slice(-500)}`);
  }
}

/** A pid file naming a live postmaster means another org process of this home already started it. */
export function embeddedRunning(paths: EmbeddedPaths): boolean {
  const pidFile = join(paths.data, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the home's PostgreSQL (creating the cluster on first start), listening only on a
 * Unix socket inside the home: no TCP port to collide with, nothing reachable from outside.
 * Answers how to connect and whether this call started it (then stop() is ours to call).
 */
export function startEmbedded(home: string): { connection: { host: string; user: string; database: string }; started: boolean } {
  const paths = embeddedPaths(home);
  const as = runAs();
  const user = as ? 'postgres' : userInfo().username;
  const connection = { host: paths.socketDir, user, database: 'postgres' };
  if (embeddedRunning(paths)) return { connection, started: false };
  mkdirSync(join(home, 'pg'), { recursive: true, mode: 0o700 });
  mkdirSync(paths.socketDir, { recursive: true, mode: 0o700 });
  if (as) {
    // The postgres account must reach its cluster through the home.
    chmodSync(home, 0o711);
    for (const dir of [join(home, 'pg'), paths.socketDir]) chownSync(dir, as.uid, as.gid);
  }
  if (!existsSync(join(paths.data, 'PG_VERSION'))) {
    run('initdb', ['-D', paths.data, '-A', 'trust', '-U', user, '-E', 'UTF8', '--no-sync'], as);
    // Trust over the socket only: its directory is the home's, mode 0700. Replication too,
    // so pg_basebackup can copy the cluster (a backup, or a streaming replica).
    writeFileSync(join(paths.data, 'pg_hba.conf'), 'local all all trust\nlocal replication all trust\n');
    if (as) chownSync(join(paths.data, 'pg_hba.conf'), as.uid, as.gid);
  }
  run(
    'pg_ctl',
    ['-D', paths.data, '-l', paths.log, '-w', '-t', '60', '-o', `-c listen_addresses='' -c unix_socket_directories='${paths.socketDir}' -c max_connections=200`, 'start'],
    as,
  );
  return { connection, started: true };
}

export function stopEmbedded(home: string): void {
  const paths = embeddedPaths(home);
  if (!embeddedRunning(paths)) return;
  run('pg_ctl', ['-D', paths.data, '-m', 'fast', '-w', 'stop'], runAs());
}

