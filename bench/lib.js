// Shared helpers of the Gate benchmarks: start and stop a gate, talk to it over the
// socket and over HTTP, sample its memory, make an English-like corpus, and print tables.
// Plain ESM JavaScript, no build step; loopback and the unix socket only.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, mkdirSync, createWriteStream } from 'node:fs';
import { connect } from 'node:net';
import http from 'node:http';
import os from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(BENCH_DIR, '..');

// ---------------------------------------------------------------- options

/**
 * Parses `--name value`, `--name=value` and bare `--flag` against a table of
 * {name: {default, help, type: 'number'|'string'|'boolean'}}. `--help` prints the table.
 */
export function parseOptions(argv, spec, usage) {
  const out = {};
  for (const [name, s] of Object.entries(spec)) out[name] = s.default;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${usage.trim()}\n\nOptions:\n`);
      for (const [name, s] of Object.entries(spec)) {
        const def = s.type === 'boolean' ? '' : ` (default: ${s.default === undefined ? 'none' : JSON.stringify(s.default)})`;
        process.stdout.write(`  --${name}${s.type === 'boolean' ? '' : ' <' + s.type + '>'}\n      ${s.help}${def}\n`);
      }
      process.stdout.write('  --help\n      this text\n');
      process.exit(0);
    }
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg} (see --help)`);
    arg = arg.slice(2);
    let value;
    const eq = arg.indexOf('=');
    if (eq >= 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const s = spec[arg];
    if (!s) throw new Error(`unknown option --${arg} (see --help)`);
    if (s.type === 'boolean') {
      out[arg] = value === undefined ? true : value !== 'false';
      continue;
    }
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new Error(`--${arg} needs a value`);
    }
    if (s.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new Error(`--${arg} must be a non-negative number`);
      out[arg] = n;
    } else out[arg] = value;
  }
  return out;
}

// ---------------------------------------------------------------- the gate process

const started = new Set();
let exitHooked = false;

function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  // A benchmark that dies or is interrupted never leaves its gate behind.
  process.on('exit', () => {
    for (const g of started) {
      try {
        process.kill(g.pid, 'SIGKILL');
      } catch {}
      if (g.removeHome) rmSync(g.home, { recursive: true, force: true });
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      process.stderr.write(`\n${sig}: stopping the gate(s) and exiting\n`);
      Promise.allSettled([...started].map((g) => g.stop())).finally(() => process.exit(130));
    });
  }
}

/** Where the compiled gate lives; the pool entry is the piece that may be missing while the scanner is written. */
export function gateBuildStatus(root = REPO_ROOT) {
  const main = join(root, 'dist/src/cli/main.js');
  const pool = join(root, 'dist/workers/scan/pool-entry.js');
  return { main, pool, ok: existsSync(main) && existsSync(pool), missing: [main, pool].filter((p) => !existsSync(p)) };
}

/**
 * For benches that build a promoted corpus: main takes one signature of any class (the
 * admin's gv.promote), and no scheduled grading runs while the figures are measured. The
 * review path itself is measured by bench/grade.js.
 */
export const ADMIN_PROMOTES_ENV = Object.freeze({
  GATE_SPACES_MAIN_POLICY: 'auto',
  GATE_REVIEW_QUORUM_PROFILE: 'solo-reviewer',
  GATE_REVIEW_GRADE_EVERY: 'off',
});

/**
 * A promotion as a reviewer makes it: the row's whole masked body read first (gv.node body:
 * true; a bench's rows fit one page), since only a signer served the whole body counts.
 */
export async function readAndPromote(client, id) {
  await client.call('gv.node', { artifact_id: id, body: true });
  return client.call('gv.promote', { artifact_id: id });
}

/**
 * The node flags the gate's bin launches it with: what its first line passes after
 * `#!/usr/bin/env -S node` (a build before that line carried none). `npm start` runs the
 * bin, so a bench that starts the gate with these measures what a user starts.
 */
export function gateLaunchFlags(main) {
  const first = readFileSync(main, 'utf8').split('\n', 1)[0];
  const m = /^#!\/usr\/bin\/env\s+(?:-S\s+)?node(?:\s+(.*))?$/.exec(first);
  if (!m) throw new Error(`${main} does not start with a node launch line: ${first}`);
  return (m[1] ?? '').split(/\s+/).filter(Boolean);
}

/**
 * Starts `node FLAGS dist/src/cli/main.js serve --home HOME --port PORT` (FLAGS: the bin's
 * launch line's, then nodeArgs; port 0: any free port) with extra env, waits for its "gate
 * listening on" line (at most listenWithinMs: a start that replays a large journal takes
 * longer) and returns {pid, url, socketPath, stop()}. stop() sends SIGTERM, then
 * SIGKILL after 15 s, and removes the home when removeHome is set.
 */
export async function startGate({ home, env = {}, root = REPO_ROOT, nodeArgs = [], removeHome = false, logFile = null, port = 0, listenWithinMs = 30_000 }) {
  hookExit();
  const build = gateBuildStatus(root);
  if (!build.ok) throw new Error(`the gate is not built: missing ${build.missing.join(', ')} (run: npx tsc -p tsconfig.json)`);
  mkdirSync(home, { recursive: true });
  const child = spawn(process.execPath, [...gateLaunchFlags(build.main), ...nodeArgs, build.main, 'serve', '--home', home, '--port', String(port)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderrTail = [];
  const log = logFile ? createWriteStream(logFile) : null;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    log?.write(chunk);
    stderrTail.push(chunk);
    while (stderrTail.length > 50) stderrTail.shift();
  });
  let exited = null;
  const exit = new Promise((res) => child.once('exit', (code, signal) => res((exited = { code, signal }))));
  const gate = {
    pid: child.pid,
    home,
    removeHome,
    child,
    url: null,
    socketPath: null,
    deployment: null,
    stderrTail: () => stderrTail.join(''),
    exited: () => exited,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => {
          process.stderr.write(`gate ${child.pid} did not stop within 15 s of SIGTERM: SIGKILL\n`);
          child.kill('SIGKILL');
        }, 15_000);
        await exit;
        clearTimeout(killer);
      }
      log?.end();
      started.delete(gate);
      if (removeHome) rmSync(home, { recursive: true, force: true });
      return exited;
    },
  };
  started.add(gate);
  const line = await new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`the gate printed no listening line within ${listenWithinMs / 1000} s\n${gate.stderrTail()}`)), listenWithinMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        res(out.slice(0, nl));
      }
    });
    exit.then((e) => {
      clearTimeout(timer);
      rej(new Error(`the gate exited (${JSON.stringify(e)}) before listening\n${gate.stderrTail()}`));
    });
  });
  const m = /^gate listening on (\S+) socket (\S+) deployment (\S+)/.exec(line);
  if (!m) {
    await gate.stop();
    throw new Error(`unexpected first line from the gate: ${line}`);
  }
  [, gate.url, gate.socketPath, gate.deployment] = m;
  child.stdout.resume();
  return gate;
}

// ---------------------------------------------------------------- clients

/**
 * A newline-delimited JSON-RPC client over the gate's unix socket. Several calls may be in
 * flight (pipelined); the gate answers them in order, so a FIFO matches answers to calls.
 */
export class SocketClient {
  static open(path) {
    return new Promise((res, rej) => {
      const s = connect(path);
      s.once('connect', () => res(new SocketClient(s)));
      s.once('error', rej);
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.pending = [];
    this.nextId = 1;
    this.buffered = '';
    socket.setEncoding('utf8');
    socket.setNoDelay?.(true);
    socket.on('data', (chunk) => {
      this.buffered += chunk;
      let nl;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const text = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        const p = this.pending.shift();
        if (!p) continue;
        let msg;
        try {
          msg = JSON.parse(text);
        } catch (e) {
          p.rej(e);
          continue;
        }
        if (msg.id !== p.id) p.rej(new Error(`answer id ${msg.id} for call ${p.id}: out of order`));
        else p.res(msg);
      }
    });
    const fail = (err) => {
      for (const p of this.pending.splice(0)) p.rej(err ?? new Error('socket closed'));
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('socket closed')));
  }

  /** Sends one request; resolves with the whole JSON-RPC answer ({result} or {error}). */
  send(method, params) {
    const id = this.nextId++;
    return new Promise((res, rej) => {
      this.pending.push({ id, res, rej });
      this.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /** Sends one request; resolves with its result, rejects on an error answer. */
  async call(method, params) {
    const msg = await this.send(method, params);
    if (msg.error) throw Object.assign(new Error(`${method}: ${msg.error.message} (${msg.error.code})`), { rpc: msg.error });
    return msg.result;
  }

  close() {
    this.socket.end();
  }
}

/** A JSON-RPC client over POST /rpc (or another JSON-RPC path, such as /mcp) with keep-alive connections. */
export class HttpClient {
  constructor(url, { maxSockets = 32 } = {}) {
    const u = new URL(url);
    if (u.hostname !== '127.0.0.1') throw new Error(`loopback only, not ${u.hostname}`);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
    this.nextId = 1;
  }

  /** Resolves {status, body}; body is the parsed JSON answer. */
  send(key, method, params) {
    return this.post('/rpc', key, { method, params });
  }

  /** POSTs one JSON-RPC message ({method, params}; jsonrpc and id are added) to `path`; resolves {status, body}. */
  post(path, key, message) {
    const payload = JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, ...message });
    return new Promise((res, rej) => {
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          path,
          method: 'POST',
          agent: this.agent,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (resp) => {
          const chunks = [];
          resp.on('data', (c) => chunks.push(c));
          resp.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body = null;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              body = { raw: text };
            }
            res({ status: resp.statusCode, body });
          });
          resp.on('error', rej);
        },
      );
      req.on('error', rej);
      req.end(payload);
    });
  }

  close() {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------- memory of the gate process

/**
 * Samples /proc/PID/status every `everyMs`: VmRSS now, and the peak (VmHWM, or the largest
 * VmRSS seen); also RssAnon, the process's own memory, apart from RssFile, the pages of
 * gate.db it reads through mmap (reclaimable file cache that grows with the database).
 */
export class RssSampler {
  constructor(pid, everyMs = 100) {
    this.pid = pid;
    this.peakKb = 0;
    this.lastKb = 0;
    this.lastAnonKb = 0;
    this.lastFileKb = 0;
    this.samples = 0;
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
    this.sample();
  }

  sample() {
    let text;
    try {
      text = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    } catch {
      return this.lastKb;
    }
    const rss = Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0);
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(text)?.[1] ?? 0);
    this.lastKb = rss;
    this.lastAnonKb = Number(/RssAnon:\s+(\d+)/.exec(text)?.[1] ?? 0);
    this.lastFileKb = Number(/RssFile:\s+(\d+)/.exec(text)?.[1] ?? 0);
    this.peakKb = Math.max(this.peakKb, rss, hwm);
    this.samples++;
    return rss;
  }

  get rssMb() {
    return round(this.sample() / 1024, 1);
  }

  /** RssAnon and RssFile now, MB. */
  get split() {
    this.sample();
    return { anon: round(this.lastAnonKb / 1024, 1), file: round(this.lastFileKb / 1024, 1) };
  }

  get peakMb() {
    this.sample();
    return round(this.peakKb / 1024, 1);
  }

  stop() {
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------- the build and the shared data

/** The checkout's HEAD as a short hash, or null outside a git checkout. */
export function gitShortHead(root = REPO_ROOT) {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/**
 * ../shared/data beside the project's checkout. A git worktree stands elsewhere than the
 * main checkout, so the main checkout's neighbour is tried too; the first that exists wins.
 */
export function sharedDataDir(root = REPO_ROOT) {
  const beside = (dir) => resolve(dir, '..', 'shared', 'data');
  const candidates = [beside(root)];
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    candidates.push(beside(dirname(common)));
  } catch {
    // not a git checkout: only the first place
  }
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0];
}

/**
 * A path as a results file records it: relative to the checkout, so that a record committed
 * to the repository names no folder of the machine it ran on. A path beside the checkout
 * (../shared/data, another build's checkout) stays relative; one further out (a scratch file
 * under the system's temporary folder) is recorded by its name alone, since the way up to it
 * says only how that machine's folders were laid out. Empty stays empty (an option left off).
 */
export function recordedPath(path, root = REPO_ROOT) {
  if (typeof path !== 'string' || path === '') return path;
  const rel = relative(root, resolve(path)).split(sep).join('/');
  if (rel === '') return '.';
  if (isAbsolute(rel) || rel.startsWith('../../')) return `outside the checkout: ${basename(path)}`;
  return rel;
}

/** A bench's options as its results file records them: every absolute path made a recorded path. */
export function recordedOptions(opts, root = REPO_ROOT) {
  return Object.fromEntries(Object.entries(opts).map(([name, value]) => [name, typeof value === 'string' && isAbsolute(value) ? recordedPath(value, root) : value]));
}

// ---------------------------------------------------------------- statistics and printing

export const round = (x, digits = 2) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Nearest-rank percentile of an array of numbers (sorted here, once per call). */
export function percentiles(values, ps = [50, 99]) {
  const sorted = Float64Array.from(values).sort();
  const out = {};
  for (const p of ps) {
    if (sorted.length === 0) {
      out[p] = NaN;
      continue;
    }
    const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    out[p] = sorted[i];
  }
  return out;
}

/** Prints rows (arrays of cells) as an aligned text table; first row is the header. */
export function printTable(rows, title) {
  if (title) process.stdout.write(`\n${title}\n`);
  const cells = rows.map((r) => r.map((c) => (c === undefined || c === null ? '' : String(c))));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  process.stdout.write(`${fmt(cells[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of cells.slice(1)) process.stdout.write(`${fmt(r)}\n`);
}

export const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n));
export const fmtMs = (n) => (Number.isFinite(n) ? (n < 1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(1)) : String(n));

export function machine() {
  return {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? null,
    node: process.version,
    mem_gb: round(os.totalmem() / 2 ** 30, 1),
    loadavg_1m: round(os.loadavg()[0], 2),
  };
}

// ---------------------------------------------------------------- an English-like corpus

/** mulberry32: a small seeded PRNG, so a corpus and its queries are the same on every run. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'y', 'z',
  'br', 'cl', 'cr', 'dr', 'fl', 'fr', 'gr', 'pl', 'pr', 'sc', 'sh', 'sl', 'sp', 'st', 'str', 'th', 'tr', 'wh', 'ch', ''];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ee', 'ou', 'oo', 'ie', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st', 'ng', 'rk', 'ct', 'ss', 'th', 'x', 'nt', 'ck'];

/**
 * The vocabulary: `size` distinct pseudo-English words ordered by rank. Frequent ranks get
 * short words, rare ranks long ones, as in English. Deterministic for a seed.
 */
export function vocabulary(size, seed = 7) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const words = [];
  const seen = new Set();
  while (words.length < size) {
    const rank = words.length;
    const syllables = rank < 60 ? 1 : rank < 800 ? 1 + Math.floor(r() * 2) : 2 + Math.floor(r() * 2);
    let w = '';
    for (let s = 0; s < syllables; s++) w += pick(ONSETS) + pick(VOWELS) + (s === syllables - 1 || r() < 0.3 ? pick(CODAS) : '');
    if (w.length < 2 || seen.has(w) || /\d/.test(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return words;
}

/** A sampler of ranks (0-based) from a Zipf distribution of exponent s over n ranks: draw(random). */
export function zipfSampler(n, s) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1) ** s;
  for (let k = 0; k < n; k++) cdf[k] /= sum;
  const draw = (random) => {
    const u = random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  draw.cdf = cdf;
  return draw;
}

export const CORPUS_DEFAULTS = { vocab: 5000, zipfS: 1.0, bytes: 1000, seed: 20261 };

/**
 * A generator of ~`bytes`-byte claims: sentences of Zipf-drawn words, each claim made
 * unique by a leading reference (`ref <tag> <n>`: two tokens that never collide with the
 * vocabulary). claim(i) is deterministic for (seed, i) when `tag` is fixed.
 */
export function corpus({ vocab = CORPUS_DEFAULTS.vocab, zipfS = CORPUS_DEFAULTS.zipfS, bytes = CORPUS_DEFAULTS.bytes, seed = CORPUS_DEFAULTS.seed, tag = 'b0' } = {}) {
  const words = vocabulary(vocab, seed);
  const draw = zipfSampler(vocab, zipfS);
  return {
    words,
    draw,
    claim(i) {
      const r = rng((seed * 1_000_003 + i) >>> 0);
      let text = `Ref ${tag} ${String(i).padStart(7, '0')}.`;
      while (text.length < bytes) {
        const n = 6 + Math.floor(r() * 13);
        let sentence = '';
        for (let k = 0; k < n; k++) {
          const w = words[draw(r)];
          sentence += k === 0 ? w[0].toUpperCase() + w.slice(1) : ` ${w}`;
          if (k > 0 && k < n - 1 && r() < 0.08) sentence += ',';
        }
        text += ` ${sentence}.`;
      }
      return text;
    },
  };
}

/** Runs `fn` for each index 0..count-1 with at most `concurrency` in flight; returns the wall time in ms. */
export async function runPool(count, concurrency, fn) {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return performance.now() - t0;
}

export function tempDir(prefix) {
  const dir = join(os.tmpdir(), `${prefix}-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------- CPU profiles (--cpu-prof)

/**
 * Summarizes a V8 .cpuprofile: self time by function and by where the code lives
 * (the gate's own files, each dependency, node internals, native/GC), as percentages.
 */
export function summarizeCpuProfile(file, top = 25) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = prof.timeDeltas;
  for (let i = 0; i < prof.samples.length; i++) {
    const id = prof.samples[i];
    self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const where = (url) => {
    if (!url) return '(native/vm)';
    if (url.startsWith('node:')) return 'node:internal';
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (nm) return `dep:${nm[1]}`;
    const d = /\/dist\/(.*)$/.exec(url);
    if (d) return d[1].replace(/\.js$/, '.ts');
    return url.startsWith('file://') ? recordedPath(fileURLToPath(url)) : url;
  };
  const fns = new Map();
  const places = new Map();
  for (const [id, us] of self) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const place = cf.url ? where(cf.url) : cf.functionName.startsWith('(') ? cf.functionName : '(native)';
    const fname = (cf.functionName || '(anonymous)').slice(0, 60);
    const name = `${fname}${fname.length === 60 ? '...' : ''} ${place}${cf.url ? ':' + (cf.lineNumber + 1) : ''}`;
    fns.set(name, (fns.get(name) ?? 0) + us);
    places.set(place, (places.get(place) ?? 0) + us);
  }
  // Inclusive time of the gate's own functions (and the native calls they make): each sample
  // counts once for every distinct gate function on its stack.
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => {
    const cf = n.callFrame;
    return `${cf.functionName || '(anonymous)'} ${where(cf.url)}:${cf.lineNumber + 1}`;
  };
  const inclusive = new Map();
  for (const [id, us] of self) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!/\/dist\//.test(n.callFrame.url) || /node_modules/.test(n.callFrame.url)) continue;
      const l = label(n);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + us);
    }
  }
  const pct = (us) => round((100 * us) / total, 1);
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    total_ms: round(total / 1000, 0),
    inclusive_gate: sorted(inclusive).slice(0, top).map(([k, v]) => [k, pct(v)]),
    by_place: sorted(places).slice(0, top).map(([k, v]) => [k, pct(v)]),
    by_function: sorted(fns).slice(0, top).map(([k, v]) => [k, pct(v)]),
  };
}

// ---------------------------------------------------------------- who else used the CPU

export const CLK_TCK = 100; // Linux USER_HZ; /proc/stat and /proc/PID/stat count in these ticks

export function procStatBusy() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

export function pidTicks(pid, file = `/proc/${pid}/stat`) {
  try {
    const text = readFileSync(file, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime (fields 14 and 15)
  } catch {
    return null;
  }
}

/**
 * Splits the machine's CPU use over an interval into the gate, this benchmark process and
 * everything else (other engineers' builds and tests share these cores), in cores.
 */
export class CpuAccount {
  constructor(gatePid) {
    this.gatePid = gatePid;
    this.t0 = performance.now();
    this.stat0 = procStatBusy();
    this.gate0 = pidTicks(gatePid);
    // The main thread's task id is the process id: its ticks apart from the workers' show
    // whether the single writer is the bound.
    this.main0 = pidTicks(gatePid, `/proc/${gatePid}/task/${gatePid}/stat`);
    this.self0 = process.cpuUsage();
    this.load0 = os.loadavg();
  }

  /** Call before the gate exits; `units` (claims) adds the gate's CPU ms per unit, main thread and workers apart. */
  stop(units = 0) {
    const seconds = (performance.now() - this.t0) / 1000;
    const stat = procStatBusy();
    const gate = pidTicks(this.gatePid);
    const main = pidTicks(this.gatePid, `/proc/${this.gatePid}/task/${this.gatePid}/stat`);
    const self = process.cpuUsage(this.self0);
    const busyCores = (stat.busy - this.stat0.busy) / CLK_TCK / seconds;
    const gateCores = gate === null || this.gate0 === null ? NaN : (gate - this.gate0) / CLK_TCK / seconds;
    const benchCores = (self.user + self.system) / 1e6 / seconds;
    return {
      seconds: round(seconds, 1),
      machine_busy_cores: round(busyCores, 2),
      gate_cores: round(gateCores, 2),
      bench_client_cores: round(benchCores, 2),
      other_processes_cores: round(Math.max(0, busyCores - gateCores - benchCores), 2),
      // The machine's 1- and 5-minute load averages when the run began and when it ended.
      loadavg_1m_5m: { start: this.load0.slice(0, 2).map((l) => round(l, 2)), end: os.loadavg().slice(0, 2).map((l) => round(l, 2)) },
      ...(units > 0 && gate !== null && main !== null && this.main0 !== null
        ? {
            gate_main_thread_cores: round((main - this.main0) / CLK_TCK / seconds, 2),
            gate_cpu_ms_per_claim: round(((gate - this.gate0) * 1000) / CLK_TCK / units, 3),
            main_thread_cpu_ms_per_claim: round(((main - this.main0) * 1000) / CLK_TCK / units, 3),
            workers_cpu_ms_per_claim: round(((gate - this.gate0 - (main - this.main0)) * 1000) / CLK_TCK / units, 3),
          }
        : {}),
    };
  }
}

/**
 * Waits (at most maxSeconds) until the machine has been quiet for a 3 s window (other
 * processes using < `threshold` cores), since a shared 2-core machine skews every figure.
 * Returns how long it waited and how busy the last window was.
 */
export async function waitQuiet(maxSeconds, threshold = 0.25, log = () => {}) {
  const t0 = performance.now();
  let told = false;
  for (;;) {
    const a = procStatBusy();
    const self0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 3000));
    const b = procStatBusy();
    const self = process.cpuUsage(self0);
    const busy = Math.max(0, (b.busy - a.busy) / CLK_TCK / 3 - (self.user + self.system) / 1e6 / 3);
    const waited = (performance.now() - t0) / 1000;
    if (busy < threshold || waited >= maxSeconds) return { waited_s: round(waited, 0), busy_cores: round(busy, 2), quiet: busy < threshold };
    if (!told) {
      log(`waiting up to ${maxSeconds} s for other processes to quiet down (now ${busy.toFixed(2)} cores busy)`);
      told = true;
    }
  }
}
