import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI } from './gate-process.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { embeddedPaths, giveToPostgres, runPostgresProgram, startEmbedded, stopEmbedded } from '../../src/org/embedded-postgres.js';

/** A PostgreSQL cluster of its own for a test file (the machine's binaries, a Unix socket in the dir). */
export class PostgresCluster {
  private constructor(
    readonly dir: string,
    readonly url: string,
  ) {}

  static start(dir: string): PostgresCluster {
    const { connection } = startEmbedded(dir);
    return new PostgresCluster(dir, `postgres://${connection.user}@localhost/${connection.database}?host=${encodeURIComponent(connection.host)}`);
  }

  /**
   * A streaming read replica of this cluster in `dir`: pg_basebackup over the primary's
   * socket with -R (standby.signal and primary_conninfo written), then started on a socket
   * of its own. It replays the primary's WAL as it is written.
   */
  replica(dir: string): PostgresCluster {
    const pgDir = join(dir, 'pg');
    // The postgres account (under root) must pass through the replica's directory to its cluster.
    mkdirSync(dir, { recursive: true, mode: 0o711 });
    mkdirSync(pgDir, { mode: 0o700 });
    giveToPostgres(pgDir);
    const primary = embeddedPaths(this.dir);
    runPostgresProgram('pg_basebackup', ['-D', embeddedPaths(dir).data, '-h', primary.socketDir, '-U', this.user, '-R', '-X', 'stream', '--no-sync']);
    return PostgresCluster.start(dir);
  }

  /** The cluster's role: the user every connection here is made as. */
  get user(): string {
    return decodeURIComponent(new URL(this.url).username);
  }

  stop(): void {
    stopEmbedded(this.dir);
  }
}

/** Runs one `gate org ...` command to its end; answers its stdout, or throws with its stderr. */
export function orgCli(args: string[], env: Record<string, string> = {}): string {
  const done = spawnSync(process.execPath, [CLI, 'org', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (done.status !== 0) throw new Error(`gate org ${args.join(' ')} exited ${done.status}: ${done.stderr}`);
  return done.stdout;
}

/** A real `gate org serve` process on a loopback port. */
export class OrgProcess {
  url = '';
  deploymentId = '';
  /** The org.metrics_address listener's /metrics, when one is set. */
  metricsUrl: string | null = null;
  readonly stderr: string[] = [];
  private child!: ChildProcess;
  private exited!: Promise<number | null>;

  /** `port`: one known before the start (a sign-in provider must list the org console's origin first); else a free one. */
  static async start(home: string, options: { databaseUrl?: string; env?: Record<string, string>; port?: number } = {}): Promise<OrgProcess> {
    const org = new OrgProcess();
    const args = [CLI, 'org', 'serve', '--home', home, '--port', String(options.port ?? 0), ...(options.databaseUrl ? ['--database-url', options.databaseUrl] : [])];
    org.child = spawn(process.execPath, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    org.exited = new Promise((resolve) => org.child.once('exit', (code) => resolve(code)));
    org.child.stderr!.on('data', (d: Buffer) => org.stderr.push(d.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: org.child.stdout! });
      lines.once('line', resolve);
      org.child.once('exit', (code) => reject(new Error(`gate org serve exited ${code}: ${org.stderr.join('')}`)));
    });
    const m = /listening on (\S+) deployment (\S+)/.exec(line);
    if (!m) throw new Error(`gate org serve said: ${line}`);
    org.url = m[1]!;
    org.deploymentId = m[2]!;
    org.metricsUrl = / metrics (\S+)/.exec(line)?.[1] ?? null;
    return org;
  }

  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

/**
 * A member's submission PUT at the organization's door with `key`, as a member gate's drain
 * sends it (`s` from SimulatedMember.submission): the status and the JSON answer.
 */
export async function putSubmission(org: { url: string }, key: string, s: { artifactId: string; body: unknown }): Promise<{ status: number; body: any }> {
  const res = await request(`${org.url}/submissions/${encodeURIComponent(s.artifactId)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(s.body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}
