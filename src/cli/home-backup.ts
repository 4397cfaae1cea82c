import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, constants, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { HomePaths } from '../config/home.js';
import { ContentReferences } from '../projections/content-references.js';
import { VIEW_SCHEMA_VERSION } from '../projections/view-version.js';
import { readHomeRecord } from '../store/home-record.js';
import { SERVICE_VERSION } from '../version.js';
import { verifyJournal, type JournalCheck } from './journal-check.js';

/**
 * A backup of a home (`gate backup`, `gate restore`; docs/operations.md, "Backup and restore"):
 * a folder holding gate.db as one consistent snapshot, the home's small files, the attachment
 * objects the snapshot names, and `backup.json`, written last, which lists what is there with
 * each file's sha256. Not copied: held-index.db (derived from the views; a start writes it
 * again), unfinished uploads, the lock and the socket.
 */
export const MANIFEST = 'backup.json';
const DATABASE = 'gate.db';
const OBJECTS = join('attachments', 'objects');

const fileEntry = z.strictObject({ name: z.string(), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

const manifestShape = z.strictObject({
  format: z.literal('gate.backup/1'),
  made_at: z.number().int(),
  gate_version: z.string(),
  /** The home copied, and the host it was copied on (its record's place when it has one). */
  from: z.strictObject({ path: z.string(), host: z.string() }),
  deployment_id: z.string(),
  journal: z.strictObject({ events: z.number().int(), head_seq: z.number().int(), head_event_id: z.string().nullable(), root: z.string() }),
  /** gate.db, the keys, the people, the settings: each with its sha256. */
  files: z.array(fileEntry),
  /** Attachment objects: named by their sha256, so each checks itself. */
  objects: z.strictObject({ count: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }),
});
export type BackupManifest = z.infer<typeof manifestShape>;

/** The home's small files a backup carries, by the name they have in a home. */
function smallFiles(paths: HomePaths): string[] {
  return [paths.key, paths.people, paths.config, paths.orgKey].filter((p) => existsSync(p));
}

/** A file's sha256, read a few MiB at a time: a gate.db may be larger than a Buffer can hold. */
function sha256File(path: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

const hexOf = (hash: string) => (hash.startsWith('sha256:') ? hash.slice(7) : hash);
const objectPath = (root: string, hash: string) => join(root, OBJECTS, hexOf(hash).slice(0, 2), hexOf(hash));

/** A copy that clones where the filesystem can (reflinks) and copies bytes where it cannot. */
function copyFile(from: string, to: string, mode = 0o600): void {
  copyFileSync(from, to, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  chmodSync(to, mode);
}

function emptyOrAbsent(dir: string): boolean {
  return !existsSync(dir) || (statSync(dir).isDirectory() && readdirSync(dir).length === 0);
}

/** Every object file in a store, as `hex` names (the snapshot's views were of another build, so nothing says which are named). */
function allObjects(root: string): string[] {
  const dir = join(root, OBJECTS);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((prefix) => readdirSync(join(dir, prefix)));
}

/**
 * Copies a home, running or not, into `dest` (absent or empty). gate.db is copied with
 * SQLite's online backup in one step: one read transaction, so the copy is the database as
 * it stood at one commit, while the gate goes on writing (WAL readers do not stop the
 * writer; its WAL grows until the step ends). The small files are copied after it, and the
 * objects the snapshot names. Then the copy is verified (verifyBackup) before backup.json is
 * written: a folder without it is no backup.
 */
export async function backupHome(paths: HomePaths, dest: string, say: (line: string) => void): Promise<{ manifest: BackupManifest; missing: string[] }> {
  if (!existsSync(paths.db)) throw new Error(`no home at ${paths.home}: ${paths.db} is missing`);
  if (!emptyOrAbsent(dest)) throw new Error(`${dest} is not empty: a backup goes into a new folder`);
  mkdirSync(join(dest, OBJECTS), { recursive: true, mode: 0o700 });
  chmodSync(dest, 0o700);
  const source = new Database(paths.db, { readonly: true, fileMustExist: true });
  const pages = source.pragma('page_count', { simple: true }) as number;
  const pageSize = source.pragma('page_size', { simple: true }) as number;
  say(`copying ${DATABASE} (${Math.round((pages * pageSize) / 1024 / 1024)} MiB) in one read transaction`);
  try {
    // The first step only starts the backup; the second copies every page at once, so no
    // other connection's commit can land between two steps and restart it.
    await source.backup(join(dest, DATABASE), { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  chmodSync(join(dest, DATABASE), 0o600);
  // A backup is one file at rest: out of WAL mode, no reader of it leaves -wal or -shm beside it
  // (the restored home's first start puts it back in WAL mode).
  const copy = new Database(join(dest, DATABASE), { fileMustExist: true });
  copy.pragma('journal_mode = DELETE');
  copy.close();
  for (const file of smallFiles(paths)) copyFile(file, join(dest, basename(file)));

  const snapshot = new Database(join(dest, DATABASE), { readonly: true, fileMustExist: true });
  const record = readHomeRecord(snapshot);
  const named = record.viewSchema === VIEW_SCHEMA_VERSION ? new ContentReferences(snapshot).namedObjects().map(hexOf) : allObjects(paths.home);
  snapshot.close();
  const missing: string[] = [];
  let bytes = 0;
  say(`copying ${named.length} attachment objects`);
  for (const hex of named) {
    const from = objectPath(paths.home, hex);
    // Named by the snapshot but gone since: an erasure after the snapshot removed it.
    if (!existsSync(from)) {
      missing.push(hex);
      continue;
    }
    mkdirSync(join(dest, OBJECTS, hex.slice(0, 2)), { recursive: true, mode: 0o700 });
    copyFile(from, objectPath(dest, hex));
    bytes += statSync(from).size;
  }

  const files = [DATABASE, ...smallFiles(paths).map((f) => basename(f))].map((name) => {
    const path = join(dest, name);
    return { name, bytes: statSync(path).size, sha256: sha256File(path) };
  });
  const db = new Database(join(dest, DATABASE), { readonly: true, fileMustExist: true });
  const chain = verifyJournal(db, join(dest, basename(paths.key)), undefined);
  db.close();
  if (!chain.ok) throw new Error(`the copy does not verify: ${chain.problem ?? 'unknown'}; nothing was kept as a backup (${dest} holds what was copied)`);
  const manifest: BackupManifest = {
    format: 'gate.backup/1',
    made_at: Date.now(),
    gate_version: SERVICE_VERSION,
    from: { path: record.place?.path ?? paths.home, host: record.place?.host ?? hostname() },
    deployment_id: chain.deployment_id!,
    journal: { events: chain.events, head_seq: chain.last_seq ?? 0, head_event_id: chain.head, root: chain.root },
    files,
    objects: { count: named.length - missing.length, bytes },
  };
  const checked = verifyBackup(dest, { manifest, chain });
  if (!checked.ok) throw new Error(`the copy does not verify: ${checked.problems.join('; ')}`);
  writeFileSync(join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return { manifest, missing };
}

export interface BackupCheck {
  ok: boolean;
  problems: string[];
  manifest: BackupManifest | null;
  chain: JournalCheck | null;
}

/**
 * Checks a backup folder: backup.json is there and whole, every file it lists has its size and
 * sha256, gate.db passes SQLite's quick_check and `gate verify`'s checks (the chain, every
 * signature, the stored tree, the key file signing it now), its chain ends where the manifest
 * says, and every attachment object it holds hashes to its name.
 */
export function verifyBackup(dir: string, made?: { manifest: BackupManifest; chain: JournalCheck }): BackupCheck {
  const problems: string[] = [];
  let manifest: BackupManifest | null = made?.manifest ?? null;
  if (manifest === null) {
    if (!existsSync(join(dir, MANIFEST))) return { ok: false, problems: [`${dir} holds no ${MANIFEST}: not a backup, or one that did not finish`], manifest: null, chain: null };
    const parsed = manifestShape.safeParse(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')));
    if (!parsed.success) return { ok: false, problems: [`${MANIFEST} is not a gate.backup/1 manifest: ${parsed.error.issues[0]?.message}`], manifest: null, chain: null };
    manifest = parsed.data;
  }
  for (const f of manifest.files) {
    const path = join(dir, f.name);
    if (!existsSync(path)) problems.push(`${f.name} is missing`);
    else if (statSync(path).size !== f.bytes || sha256File(path) !== f.sha256) problems.push(`${f.name} is not the file the backup made (size or sha256 differ)`);
  }
  let chain: JournalCheck | null = null;
  if (existsSync(join(dir, DATABASE))) {
    const db = new Database(join(dir, DATABASE), { readonly: true, fileMustExist: true });
    try {
      const quick = db.pragma('quick_check', { simple: true });
      if (quick !== 'ok') problems.push(`gate.db fails SQLite's quick_check: ${String(quick)}`);
      // The backup just made walked its chain already; a chain walk is the long part (an Ed25519 check an event).
      chain = made?.chain ?? verifyJournal(db, existsSync(join(dir, 'deployment.key')) ? join(dir, 'deployment.key') : null, manifest.deployment_id);
    } finally {
      db.close();
    }
    if (!chain.ok) problems.push(`the journal does not verify: ${chain.problem ?? 'unknown'}`);
    else if (chain.head !== manifest.journal.head_event_id || chain.events !== manifest.journal.events) problems.push('the journal does not end where backup.json says');
  }
  let objects = 0;
  for (const hex of allObjects(dir)) {
    objects += 1;
    if (sha256File(objectPath(dir, hex)) !== hex) problems.push(`attachment object ${hex.slice(0, 16)} does not hash to its name`);
  }
  if (objects !== manifest.objects.count) problems.push(`${objects} attachment objects where backup.json lists ${manifest.objects.count}`);
  return { ok: problems.length === 0, problems, manifest, chain };
}

/**
 * Prepares `paths.home` (absent or empty) from a verified backup: the files, modes as a
 * home's, and restored-from.json, which the first start journals (home-placed, reason
 * restored, or takeover when the home is started away from where the backup's home lived).
 */
export function restoreHome(src: string, paths: HomePaths): BackupManifest {
  const checked = verifyBackup(src);
  if (!checked.ok) throw new Error(`${src} does not verify: ${checked.problems.join('; ')}; nothing was restored`);
  const manifest = checked.manifest!;
  if (!emptyOrAbsent(paths.home)) throw new Error(`${paths.home} is not empty: restore into a new folder (move the old home aside first)`);
  mkdirSync(paths.home, { recursive: true });
  // Other local accounts must reach gate.sock (they are agents there) but may not list the home (as prepareHome makes it).
  chmodSync(paths.home, 0o711);
  for (const f of manifest.files) copyFile(join(src, f.name), join(paths.home, f.name));
  const objects = join(src, OBJECTS);
  for (const prefix of existsSync(objects) ? readdirSync(objects) : []) {
    mkdirSync(join(paths.home, OBJECTS, prefix), { recursive: true, mode: 0o700 });
    for (const hex of readdirSync(join(objects, prefix))) copyFile(join(objects, prefix, hex), join(paths.home, OBJECTS, prefix, hex));
  }
  const restored = {
    backup_made_at: manifest.made_at,
    head_seq: manifest.journal.head_seq,
    head_event_id: manifest.journal.head_event_id,
    from_path: manifest.from.path,
    from_host: manifest.from.host,
  };
  writeFileSync(paths.restoredFrom, `${JSON.stringify(restored, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return manifest;
}
