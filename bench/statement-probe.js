// Loaded into a benchmarked gate with `node --import bench/statement-probe.js`: counts and
// times every better-sqlite3 statement the gate runs (by SQL text), the rows each changed
// and the transactions, and on SIGUSR2 writes the totals since the last signal to
// $GATE_BENCH_STMT_FILE and starts over. better-sqlite3 has no per-statement profiler, and
// a CPU profile charges every statement's step to the transaction wrapper's native frame,
// so this is how the bench tells which statements an ingest costs. The gate knows nothing
// of it; timing each call adds ~1 µs of its own, so read the times as shares, not floors.
import { createRequire } from 'node:module';
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const file = process.env.GATE_BENCH_STMT_FILE;
if (file) {
  // The gate's own copy of the module (the CJS cache is shared), found from its working directory.
  const require = createRequire(join(process.cwd(), 'package.json'));
  const Database = require('better-sqlite3');
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  const sqlOf = (stmt) => stmt.source.replace(/\s+/g, ' ').trim();
  let stats = new Map();
  let txns = { count: 0, ms: 0 };
  // Each COMMIT's time apart, so a bimodal spread (an autocheckpoint every few commits) shows.
  let commits = [];
  // Pages each COMMIT appended to the WAL: mxFrame of the wal-index header (the -shm file,
  // native byte order, offset 16) before and after; a checkpoint's reset restarts it at 0.
  // Unlike times, this does not drift with the machine's load.
  let walFrames = 0;
  // Which B-tree each of those pages belongs to: the page numbers in the frame headers
  // (big-endian, first 4 bytes of each 24-byte header), named through dbstat when asked.
  let walPages = new Map();
  const walFds = new Map();
  const frameHeader = Buffer.alloc(4);
  const countFramePages = (dbFile, from, to) => {
    let fd = walFds.get(dbFile);
    if (fd === undefined) {
      try {
        fd = openSync(`${dbFile}-wal`, 'r');
      } catch {
        fd = null;
      }
      walFds.set(dbFile, fd);
    }
    if (fd === null) return;
    for (let frame = from + 1; frame <= to; frame++) {
      if (readSync(fd, frameHeader, 0, 4, 32 + (frame - 1) * (24 + 4096)) !== 4) return;
      const key = `${dbFile}\0${frameHeader.readUInt32BE(0)}`;
      walPages.set(key, (walPages.get(key) ?? 0) + 1);
    }
  };
  const pagesByTree = () => {
    const files = new Map();
    for (const [key, n] of walPages) {
      const [dbFile, page] = key.split('\0');
      if (!files.has(dbFile)) files.set(dbFile, new Map());
      files.get(dbFile).set(Number(page), n);
    }
    const byTree = new Map();
    for (const [dbFile, pages] of files) {
      const reader = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const owner = new Map(reader.prepare('SELECT pageno, name FROM dbstat').raw().all());
        for (const [page, n] of pages) {
          const name = owner.get(page) ?? '(free or reused)';
          byTree.set(name, (byTree.get(name) ?? 0) + n);
        }
      } finally {
        reader.close();
      }
    }
    return [...byTree.entries()].map(([tree, pages]) => ({ tree, pages })).sort((a, b) => b.pages - a.pages);
  };
  const shm = new Map();
  const header = Buffer.alloc(4);
  const mxFrame = (dbFile) => {
    let fd = shm.get(dbFile);
    if (fd === undefined) {
      try {
        fd = openSync(`${dbFile}-shm`, 'r');
      } catch {
        fd = null;
      }
      shm.set(dbFile, fd);
    }
    if (fd === null) return null;
    readSync(fd, header, 0, 4, 16);
    return header.readUInt32LE(0);
  };
  process.on('exit', () => {
    for (const fd of [...shm.values(), ...walFds.values()]) if (fd !== null) closeSync(fd);
  });
  const record = (sql, ns, changes) => {
    let s = stats.get(sql);
    if (!s) stats.set(sql, (s = { calls: 0, ms: 0, changes: 0 }));
    s.calls += 1;
    s.ms += ns / 1e6;
    s.changes += changes;
  };
  for (const method of ['run', 'get', 'all']) {
    const original = Statement[method];
    Statement[method] = function timed(...args) {
      const sql = sqlOf(this);
      const frames0 = sql === 'COMMIT' ? mxFrame(this.database.name) : null;
      const t = process.hrtime.bigint();
      const out = original.apply(this, args);
      const ns = Number(process.hrtime.bigint() - t);
      if (sql === 'COMMIT') {
        commits.push(ns / 1e6);
        const frames1 = mxFrame(this.database.name);
        if (frames0 !== null && frames1 !== null) {
          const from = frames1 >= frames0 ? frames0 : 0;
          walFrames += frames1 - from;
          countFramePages(this.database.name, from, frames1);
        }
      }
      record(sql, ns, method === 'run' ? out.changes : 0);
      return out;
    };
  }
  const iterate = Statement.iterate;
  Statement.iterate = function* timedIterate(...args) {
    const sql = sqlOf(this);
    const t = process.hrtime.bigint();
    let paused = 0n;
    for (const row of iterate.apply(this, args)) {
      const y = process.hrtime.bigint();
      yield row;
      paused += process.hrtime.bigint() - y;
    }
    record(sql, Number(process.hrtime.bigint() - t - paused), 0);
  };
  const exec = Database.prototype.exec;
  Database.prototype.exec = function timedExec(sql) {
    const t = process.hrtime.bigint();
    const out = exec.call(this, sql);
    record(`exec: ${sql.replace(/\s+/g, ' ').trim().slice(0, 120)}`, Number(process.hrtime.bigint() - t), 0);
    return out;
  };
  const transaction = Database.prototype.transaction;
  Database.prototype.transaction = function timedTransaction(fn) {
    const wrapped = transaction.call(this, fn);
    const outer = function timedTxn(...args) {
      if (this?.inTransaction ?? false) return wrapped.apply(this, args);
      const t = process.hrtime.bigint();
      try {
        return wrapped.apply(this, args);
      } finally {
        txns.count += 1;
        txns.ms += Number(process.hrtime.bigint() - t) / 1e6;
      }
    };
    for (const k of ['deferred', 'immediate', 'exclusive']) outer[k] = wrapped[k];
    return outer;
  };
  process.on('SIGUSR2', () => {
    const rows = [...stats.entries()].map(([sql, s]) => ({ sql, ...s })).sort((a, b) => b.ms - a.ms);
    commits.sort((a, b) => a - b);
    const at = (q) => (commits.length === 0 ? 0 : Math.round(commits[Math.min(commits.length - 1, Math.floor(q * commits.length))] * 100) / 100);
    const commitMs = { count: commits.length, p10: at(0.1), p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
    writeFileSync(file, JSON.stringify({ transactions: txns, commit_ms: commitMs, wal_pages: walFrames, wal_pages_by_tree: pagesByTree(), statements: rows }));
    commits = [];
    walFrames = 0;
    walPages = new Map();
    stats = new Map();
    txns = { count: 0, ms: 0 };
  });
}
