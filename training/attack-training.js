// Training of the scanner's attack classifier (workers/scan/attack-model.ts): what it learns
// from, how, and how the result is written. Used by training/attack-model.js (which writes the
// committed weights) and by bench/scanner-quality.js (which trains one model per held-out
// LoCoMo conversation to measure false positives on conversations the model never saw).
//
// What it may learn from (each source's README in ../shared/data says so):
//   - PromptShield's train split: its attacks (label 1; the "control" rows, ordinary requests
//     labelled as attacks, are left out as label noise) and its benign and edge-case prompts;
//     never its validation split, which the bench reports, nor any other split;
//   - the LoCoMo development half as benign text: turns as the gate stores them, and each
//     session's observations and summary;
//   - benign text we wrote (fixtures/scan-training/benign-notes.jsonl): notes, commands,
//     multilingual text, security knowledge, what agents store;
//   - the README files of some of our dependencies (pinned by package-lock.json) as benign
//     technical documentation nobody here wrote.
// Deterministic: the same inputs, options and Node.js give the same bytes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { locomoClaim } from '../bench/locomo-claim.js';

export const DEFAULTS = Object.freeze({ bits: 16, epochs: 12, learningRate: 0.5, l2: 1e-6, seed: 20261128, threshold: 0.5, unaddressedThreshold: 0.8, high: 0.95 });

/** Dependencies whose README files are benign documentation to learn from (names fixed so retraining reproduces). */
export const DOC_PACKAGES = Object.freeze([
  'yauzl', 'piscina', 'smol-toml', 'undici', 'yazl', 'preact', '@noble/ed25519', 'ajv', 'openid-client',
  '@humanwhocodes/momoa', 'jose', '@decimalturn/toml-patch', 'zod', 'better-sqlite3', 'pino', 'pg', 'fast-check',
  'commander', 'p-queue', 'file-type', 'canonicalize', 'exif-reader', 'sqlite-vec', 'pg-pool', 'semver', 'debug',
  'magic-string', 'picomatch', 'yaml', 'chai', 'eventsource-parser', 'oauth4webapi', 'tar-stream', 'sonic-boom',
]);

const PARAGRAPH_MIN = 30;
const PARAGRAPH_MAX = 1500;
const CODE_LINE_MIN = 15;
const CODE_LINE_MAX = 200;

/** A JSON Lines file's objects, blank lines skipped. */
export const readJsonLines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));


/** The LoCoMo conversations of `dir`: {id, turns (claim texts), notes (observations and summaries)}. */
export function readLocomo(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const c = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const conversation = c.conversation ?? c;
      const turns = [];
      const notes = [];
      for (const key of Object.keys(conversation)) {
        if (/^session_\d+$/.test(key)) for (const t of conversation[key]) turns.push(locomoClaim(t, conversation[`${key}_date_time`]));
      }
      for (const key of Object.keys(c)) {
        if (key.endsWith('_observation')) for (const said of Object.values(c[key])) for (const o of said) notes.push(Array.isArray(o) ? o[0] : String(o));
        if (key.endsWith('_summary') && typeof c[key] === 'string') notes.push(c[key]);
      }
      return { id: file.replace(/\.json$/, ''), turns, notes };
    });
}

/** Paragraphs of the named packages' README files, and each package's version. */
export function readDependencyDocs(root) {
  const paragraphs = [];
  const codeLines = [];
  const seenLines = new Set();
  const versions = {};
  for (const name of DOC_PACKAGES) {
    const dir = join(root, 'node_modules', name);
    const readme = join(dir, 'README.md');
    if (!existsSync(readme)) continue;
    versions[name] = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
    const readmeText = readFileSync(readme, 'utf8');
    for (const part of readmeText.split(/\n[ \t]*\n/)) {
      const text = part.trim();
      if (text.length >= PARAGRAPH_MIN && text.length <= PARAGRAPH_MAX) paragraphs.push(text);
    }
    // Each line of the code blocks alone too: a one-line snippet, an assignment or a config
    // line is what a short technical note often is, and code alone is no attack.
    for (const block of readmeText.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) {
      for (const line of block[1].split('\n')) {
        const text = line.trim();
        if (text.length >= CODE_LINE_MIN && text.length <= CODE_LINE_MAX && !seenLines.has(text)) {
          seenLines.add(text);
          codeLines.push(text);
        }
      }
    }
  }
  return { paragraphs, codeLines, versions };
}

/**
 * Every labelled sample, in a fixed order. `exceptConversation` leaves one LoCoMo conversation
 * out, for cross-validation.
 */
export function collectSamples({ dataDir, root, exceptConversation = null }) {
  const psTrain = join(dataDir, 'promptshield', 'train.jsonl');
  const locomoDir = join(dataDir, 'locomo-dev');
  for (const need of [psTrain, locomoDir]) if (!existsSync(need)) throw new Error(`training data not found: ${need}`);
  const samples = [];
  const counts = { promptshield_attacks: 0, promptshield_benign: 0, locomo: 0, own_notes: 0, dependency_docs: 0, dependency_code_lines: 0 };
  for (const row of readJsonLines(psTrain)) {
    if (row.label === 1 && row.attack_type === 'control') continue;
    samples.push({ text: row.prompt, label: row.label === 1 ? 1 : 0 });
    counts[row.label === 1 ? 'promptshield_attacks' : 'promptshield_benign']++;
  }
  const conversations = readLocomo(locomoDir);
  if (exceptConversation !== null && !conversations.some((c) => c.id === exceptConversation)) {
    throw new Error(`no LoCoMo conversation ${exceptConversation} in ${locomoDir}`);
  }
  for (const c of conversations) {
    if (c.id === exceptConversation) continue;
    for (const text of [...c.turns, ...c.notes]) samples.push({ text, label: 0 });
    counts.locomo += c.turns.length + c.notes.length;
  }
  for (const row of readJsonLines(join(root, 'fixtures', 'scan-training', 'benign-notes.jsonl'))) {
    samples.push({ text: row.text, label: 0 });
    counts.own_notes++;
  }
  const docs = readDependencyDocs(root);
  for (const text of [...docs.paragraphs, ...docs.codeLines]) samples.push({ text, label: 0 });
  counts.dependency_docs = docs.paragraphs.length;
  counts.dependency_code_lines = docs.codeLines.length;
  return { samples, counts, conversations: conversations.map((c) => c.id), docVersions: docs.versions };
}

function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * Logistic regression by AdaGrad over the samples' hashed features, classes weighted to
 * count equally; then quantised to one signed byte a weight.
 */
export async function trainAttackModel(samples, options = {}, onEpoch = () => {}) {
  const o = { ...DEFAULTS, ...options };
  const root = options.root;
  const { FeatureExtractor } = await import(pathToFileURL(join(root, 'dist', 'workers', 'scan', 'attack-features.js')).href);
  const extractor = new FeatureExtractor(o.bits);
  const dims = 1 << o.bits;
  const features = samples.map((s) => Int32Array.from(extractor.features(s.text)));
  const positives = samples.filter((s) => s.label === 1).length;
  const weightOf = [samples.length / (2 * (samples.length - positives)), samples.length / (2 * positives)];
  const w = new Float64Array(dims);
  const g2 = new Float64Array(dims).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const order = samples.map((_, i) => i);
  const next = random(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    for (const i of order) {
      const idx = features[i];
      const unit = 1 / Math.sqrt(idx.length || 1);
      let z = bias;
      for (const k of idx) z += w[k] * unit;
      const p = 1 / (1 + Math.exp(-z));
      const y = samples[i].label;
      loss -= weightOf[y] * Math.log(Math.max(1e-12, y === 1 ? p : 1 - p));
      const g = (p - y) * weightOf[y];
      for (const k of idx) {
        const gk = g * unit + o.l2 * w[k];
        g2[k] += gk * gk;
        w[k] -= (o.learningRate * gk) / Math.sqrt(g2[k]);
      }
      biasG2 += g * g;
      bias -= (o.learningRate * g) / Math.sqrt(biasG2);
    }
    onEpoch(epoch + 1, loss / samples.length);
  }
  let largest = 0;
  for (const x of w) largest = Math.max(largest, Math.abs(x));
  const scale = largest / 127 || 1;
  const bytes = new Int8Array(dims);
  for (let k = 0; k < dims; k++) bytes[k] = Math.max(-127, Math.min(127, Math.round(w[k] / scale)));
  return {
    bits: o.bits,
    bias: Number(bias.toPrecision(9)),
    scale: Number(scale.toPrecision(9)),
    threshold: o.threshold,
    unaddressedThreshold: o.unaddressedThreshold,
    high: o.high,
    weights: Buffer.from(bytes.buffer).toString('base64'),
  };
}
