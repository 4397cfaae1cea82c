#!/usr/bin/env node
// A year of growth: what a claim costs on disk, by part of the home (the journal, the content
// store, the views, the recall indexes, the held index, the attachment store), measured on a
// real gate's home after its claims were ingested and promoted; what an erasure and a vacuum
// give back; and a year at 10,000 and at 1,000,000 claims a day, worked out from them.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  ADMIN_PROMOTES_ENV,
  BENCH_DIR,
  HttpClient,
  REPO_ROOT,
  SocketClient,
  corpus,
  fmtInt,
  gitShortHead,
  machine,
  parseOptions,
  printTable,
  readAndPromote,
  round,
  startGate,
  tempDir,
} from './lib.js';

const USAGE = `
node bench/growth.js [options]

Ingests --count unique claims of --bytes (over POST /rpc, agent keys), promotes them all
(socket, as the admin: a served row is in the recall indexes), gives --attachments of them an
attachment of --attachment-bytes, waits for the indexes written after the answer, stops the
gate, and measures the home with SQLite's dbstat: bytes per claim of the journal (its table and
indexes), the content store (claim bytes), the views, the recall indexes (FTS5 and vectors),
held-index.db, and the attachment store per attachment. Then erases --erase rows, runs
\`gate vacuum\`, and records what came back; then drops the views and times the start that
replays the journal into them (what an upgrade changing the view schema costs). Writes
bench/results/growth.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    count: { type: 'number', default: 20_000, help: 'claims' },
    bytes: { type: 'number', default: 1000, help: 'bytes of each claim' },
    attachments: { type: 'number', default: 200, help: 'claims given one attachment each' },
    'attachment-bytes': { type: 'number', default: 100_000, help: 'bytes of each attachment' },
    erase: { type: 'number', default: 200, help: 'rows erased (gv.erase) before the vacuum' },
    clients: { type: 'number', default: 16, help: 'concurrent HTTP clients and socket connections' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'growth.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);
const MiB = (b) => round(b / 1024 / 1024, 1);

/** Each B-tree of a database file by the part of the home it belongs to. */
function partOf(name) {
  if (name === 'journal' || name.startsWith('journal_') || name.startsWith('sqlite_autoindex_journal')) return 'journal';
  if (name === 'blobs' || name.startsWith('sqlite_autoindex_blobs')) return 'content_store';
  if (name.startsWith('recall_fts')) return 'recall_fts';
  if (name.startsWith('vector_') || name.startsWith('sqlite_autoindex_vector_')) return 'vectors';
  if (name === 'log_tree') return 'log_tree';
  if (name.startsWith('sqlite_')) return 'sqlite_schema';
  return 'views';
}

/** Bytes by part, from dbstat (every page of the file: payload, headers and unused space), and the free pages. */
function measureDb(path) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const parts = {};
    for (const { name, bytes } of db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all()) {
      const part = partOf(name);
      parts[part] = (parts[part] ?? 0) + bytes;
    }
    const pageSize = db.pragma('page_size', { simple: true });
    return { parts, free: db.pragma('freelist_count', { simple: true }) * pageSize, file: statSync(path).size };
  } finally {
    db.close();
  }
}

/** Bytes the files under a folder hold on disk (blocks, as du counts them) and their lengths. */
function measureFiles(dir) {
  let disk = 0;
  let length = 0;
  let files = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const s = statSync(path);
        disk += s.blocks * 512;
        length += s.size;
        files += 1;
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return { disk, length, files };
}

const gateCli = (...args) => spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], { encoding: 'utf8' });

async function main() {
  const dir = tempDir('gate-growth');
  const home = join(dir, 'home');
  const started = new Date();
  const gate = await startGate({ home, env: { ...ADMIN_PROMOTES_ENV, GATE_QUARANTINE_MAX_DEPTH: String(Math.max(200_000, opts.count * 2)) } });
  const gen = corpus({ bytes: opts.bytes, tag: 'growth' });
  const ids = new Array(opts.count);
  let contentBytes = 0;
  try {
    const admin = await SocketClient.open(gate.socketPath);
    const keys = [];
    for (let i = 0; i < opts.clients; i++) keys.push((await admin.call('gv.keys', { action: 'issue', role: 'agent', label: `growth-${i}` })).key);
    const http = new HttpClient(gate.url, { maxSockets: keys.length });
    // The attachments first, each uploaded by the key whose claim names it.
    const attached = new Map();
    for (let i = 0; i < opts.attachments; i++) {
      const bytes = randomBytes(opts['attachment-bytes']);
      const sha256 = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      const key = keys[i % keys.length];
      for (let offset = 0; offset < bytes.length; offset += 1 << 20) {
        const part = bytes.subarray(offset, offset + (1 << 20));
        const { body } = await http.send(key, 'gv.upload', { sha256, size_bytes: bytes.length, offset, content: part.toString('base64') });
        if (body.error) throw new Error(`upload: ${JSON.stringify(body.error)}`);
      }
      attached.set(i, sha256);
    }
    log(`ingesting ${fmtInt(opts.count)} claims of ${opts.bytes} bytes (${opts.attachments} with an attachment of ${fmtInt(opts['attachment-bytes'])} bytes)`);
    let next = 0;
    await Promise.all(
      keys.map(async (key, k) => {
        while (next < opts.count) {
          const i = next++;
          // An attachment is named by the writer who uploaded it: claim i goes with the key that uploaded attachment i.
          const useKey = attached.has(i) ? keys[i % keys.length] : key;
          const content = gen.claim(i);
          contentBytes += Buffer.byteLength(content);
          const { body } = await http.send(useKey, 'gv.ingest', {
            content,
            workarea: `growth/w${i % 16}`,
            kind: 'memory',
            source_uri: `bench://growth/${i}`,
            ...(attached.has(i) ? { attachments: [{ sha256: attached.get(i), name: `file-${i}.bin` }] } : {}),
          });
          if (body.error) throw new Error(`ingest ${i} (client ${k}): ${JSON.stringify(body.error)}`);
          ids[i] = body.result.artifact_id;
        }
      }),
    );
    http.close();
    log('promoting them all');
    const conns = await Promise.all(Array.from({ length: opts.clients }, () => SocketClient.open(gate.socketPath)));
    next = 0;
    await Promise.all(
      conns.map(async (c) => {
        while (next < opts.count) {
          const i = next++;
          const r = await readAndPromote(c, ids[i]);
          if (r.state !== 'ACTIVE') throw new Error(`promote ${i}: ${r.state}`);
        }
      }),
    );
    // The vectors and the held index are written after the answers: wait until nothing waits.
    for (;;) {
      const { stages } = await admin.call('gv.queues', {});
      const embed = stages.find((s) => s.stage === 'embed');
      if (embed.queued === 0 && embed.running === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const c of conns) c.close();
    admin.close();
  } finally {
    await gate.stop();
  }
  // Measured on a home a clean stop closed: the held index's last batches written, the WAL copied
  // in (a stop past the 15 s of startGate's SIGTERM is cut by SIGKILL, and the next start puts it right).
  const settled = await startGate({ home, env: ADMIN_PROMOTES_ENV });
  const settledStop = await settled.stop();
  if (settledStop.signal !== null || settledStop.code !== 0) throw new Error(`the settling start stopped ${JSON.stringify(settledStop)}`);

  const db = measureDb(join(home, 'gate.db'));
  const held = existsSync(join(home, 'held-index.db')) ? statSync(join(home, 'held-index.db')).size : 0;
  const attachments = measureFiles(join(home, 'attachments', 'objects'));
  const per = (bytes) => round(bytes / opts.count, 1);
  const perClaim = Object.fromEntries(Object.entries(db.parts).map(([k, v]) => [k, per(v)]));
  const dbPerClaim = per(db.file);

  // What comes back: erase some rows on a running gate, then vacuum the stopped home.
  const again = await startGate({ home, env: ADMIN_PROMOTES_ENV });
  let erased = 0;
  try {
    const admin = await SocketClient.open(again.socketPath);
    for (const id of ids.slice(0, opts.erase)) {
      const r = await admin.call('gv.erase', { artifact_id: id, reason: 'growth bench: what an erasure gives back' });
      if (r.bytes_removed) erased += 1;
    }
    admin.close();
  } finally {
    await again.stop();
  }
  const beforeVacuum = measureDb(join(home, 'gate.db'));
  const heldBefore = statSync(join(home, 'held-index.db')).size;
  const vacuum = gateCli('vacuum', '--home', home);
  if (vacuum.status !== 0) throw new Error(`gate vacuum: ${vacuum.stderr}`);
  const afterVacuum = statSync(join(home, 'gate.db')).size;
  const heldAfter = statSync(join(home, 'held-index.db')).size;

  // How long an upgrade that changes the view schema takes: the views dropped, the start replays the whole journal.
  const journalEvents = (() => {
    const db = new Database(join(home, 'gate.db'));
    try {
      db.pragma('user_version = 0');
      return db.prepare('SELECT max(seq) FROM journal').pluck().get();
    } finally {
      db.close();
    }
  })();
  const t0 = performance.now();
  const replayed = await startGate({ home, env: ADMIN_PROMOTES_ENV, listenWithinMs: 600_000 });
  const replayMs = performance.now() - t0;
  await replayed.stop();

  const year = (perDay) => {
    const claims = perDay * 365;
    const dbBytes = dbPerClaim * claims;
    return { claims, gate_db_gib: round(dbBytes / 2 ** 30, 1), journal_gib: round((perClaim.journal * claims) / 2 ** 30, 1) };
  };
  const result = {
    measured_at: started.toISOString(),
    command: `node bench/growth.js --count ${opts.count} --bytes ${opts.bytes} --attachments ${opts.attachments} --attachment-bytes ${opts['attachment-bytes']} --erase ${opts.erase}`,
    gate_commit: gitShortHead(),
    machine: machine(),
    claims: opts.count,
    content_bytes_per_claim: per(contentBytes),
    bytes_per_claim: { ...perClaim, gate_db_file: dbPerClaim, held_index_file: per(held), free_pages: per(db.free) },
    attachment_store: {
      attachments: attachments.files,
      bytes_each: opts['attachment-bytes'],
      disk_bytes_per_attachment: round(attachments.disk / Math.max(1, attachments.files), 0),
      overhead: round(attachments.disk / Math.max(1, attachments.length), 3),
    },
    reclaim: {
      erased_rows: opts.erase,
      rows_whose_bytes_left: erased,
      free_pages_before_vacuum_mib: MiB(beforeVacuum.free),
      gate_db_before_vacuum_mib: MiB(beforeVacuum.file),
      gate_db_after_vacuum_mib: MiB(afterVacuum),
      held_index_before_vacuum_mib: MiB(heldBefore),
      held_index_after_vacuum_mib: MiB(heldAfter),
    },
    replay: { journal_events: journalEvents, start_ms: round(replayMs, 0), events_per_s: round((journalEvents / replayMs) * 1000, 0) },
    year: { at_10k_per_day: year(10_000), at_1m_per_day: year(1_000_000) },
  };
  printTable([['part', 'bytes per claim'], ...Object.entries(result.bytes_per_claim)], `bytes per claim (${fmtInt(opts.count)} claims of ${opts.bytes} bytes, all promoted)`);
  log(JSON.stringify({ attachment_store: result.attachment_store, reclaim: result.reclaim, replay: result.replay, year: result.year }, null, 2));
  if (opts.out !== '') writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
}

await main();
