// Training of the scanner's two learned parts (workers/scan/attack-model.ts and the jailbreak
// model of workers/scan/jailbreak-signals.ts): what they learn from, how, and how each
// threshold is chosen. Used by training/attack-model.js, which writes the committed weights,
// and by bench/scanner-quality.js, which trains the same recipe once per source left out to
// measure what generalises (docs/scanner.md).
//
//   - The attack classifier: a logistic regression over hashed character and word n-grams of
//     windows of at most 480 characters (attack-features.ts, attack-windows.ts). An attack text
//     is a bag of windows of which at least one is the attack: the first round counts every
//     window, the second only those the first round found most attack-like (multiple-instance
//     learning), so a long jailbreak's small talk does not teach the model that small talk attacks.
//     A jailbreak in the wild is mostly a role-play ("act as …, you are …") that a benign role
//     prompt shares word for word; what makes it an attack is the part that takes the rules
//     away. So of a jailbreak, only the windows the jailbreak rule finds taking the rules away
//     (a strong family of jailbreak-signals.ts) teach the classifier; its other windows teach
//     nothing, neither attack nor benign. Left out of training, the role prompts of
//     awesome-chatgpt-prompts were held 4.7% with every window taught, 2.5% without
//     (docs/scanner.md).
//   - The jailbreak model: a logistic regression over counts of the genre's wordings
//     (persona set-ups, rules removed, refusals forbidden, second answers…), read from texts
//     long enough to set a scene. Its features are meanings, not a source's style, which is
//     why it holds on jailbreaks it never saw.
//
// Each threshold is chosen on the training data alone, out of fold, and the folds are the
// source families: each benign family's texts are scored by models trained on every other
// family, and the threshold is the lowest at which no benign source has more than
// `targetFpr` of its texts held. A text the gate meets comes from no source it trained on, and
// a fold cut by a hash of each text hides that: the models had seen the fold's neighbours (the
// same author's notes, the same collection's prompts), so their scores on it were lower than
// on text from elsewhere, and a threshold chosen on them held 1.15-2.0% of a benign source
// left out where 0.5% was asked (docs/scanner.md). The figure a bench reports on a source left
// out includes nothing the threshold saw. (`thresholdFolds: 'hash'` keeps the hash folds, for
// comparison.)
//
// Deterministic: the same inputs, options and Node.js give the same bytes.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { itemShipped } from './scanner-sources.js';

export const DEFAULTS = Object.freeze({
  bits: 16,
  epochs: 10,
  learningRate: 0.5,
  l2: 1e-6,
  seed: 20261207,
  /** 'family': a benign source family's texts are scored by models that never saw the family (above); 'hash': `folds` folds by a hash of each text. */
  thresholdFolds: 'family',
  folds: 3,
  /** The most any benign source of the training data may have held, out of fold, at the chosen threshold. */
  targetFpr: 0.005,
  /** The share of a benign source the built-in reviewer may find suspicious (it waits for a person, not held). */
  suspicionFpr: 0.02,
  floor: 0.5,
  ceiling: 0.995,
  jailbreakEpochs: 60,
  jailbreakLearningRate: 0.2,
  jailbreakMinLength: 200,
});

/**
 * The texts a model learns from: every item of `sources` whose licence lets shipped weights
 * learn from it (itemShipped), but those of the family left out. BIPIA's bare text attacks
 * are harmless tasks ("Describe the lifecycle of a butterfly.") that are attacks only where
 * they are planted: the embedded-instruction rule judges them in their carrier, and as lone
 * positives they would teach the classifier that every request attacks. They stay out.
 */
export function trainingItems(sources, { exceptFamily = null } = {}) {
  const items = [];
  for (const source of sources) {
    if (source.family === exceptFamily) continue;
    for (const item of source.items) {
      if (!itemShipped(source, item)) continue;
      if (source.name === 'bipia-attack-strings' && item.type === 'bare-text') continue;
      items.push({ text: item.text, label: source.label, source: source.name, family: source.family });
    }
  }
  return items;
}

/** The compiled worker modules the models are read with, so training meets scanning exactly. */
export async function workerModules(root) {
  const load = (file) => import(pathToFileURL(join(root, 'dist', 'workers', 'scan', file)).href);
  const [features, windows, cues, jailbreak] = await Promise.all([load('attack-features.js'), load('attack-windows.js'), load('attack-cues.js'), load('jailbreak-signals.js')]);
  return { FeatureExtractor: features.FeatureExtractor, windowBounds: windows.windowBounds, holdsAttackCue: cues.holdsAttackCue, readJailbreak: jailbreak.readJailbreak, JAILBREAK_FEATURES: jailbreak.JAILBREAK_FEATURES };
}

function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function shuffle(order, next) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
}

const foldOf = (text, folds) => createHash('sha256').update(text).digest()[0] % folds;

/** The sources whose attacks teach the classifier only by their windows that take the rules away (see the top of this file). */
const ROLE_PLAY_SOURCES = new Set(['jailbreaks']);

/**
 * Each item read once: its windows' features and cues (for the classifier) and its jailbreak
 * features. `items` gains `windows: [{features, cue, teaches}]` and `jailbreak: Float64Array | null`.
 */
export function featurize(items, modules, o) {
  const extractor = new modules.FeatureExtractor(o.bits);
  for (const item of items) {
    const bounds = modules.windowBounds(item.text);
    const rolePlay = item.label === 1 && ROLE_PLAY_SOURCES.has(item.source);
    item.windows = [];
    for (let w = 0; w < bounds.length; w += 2) {
      item.windows.push({
        features: Int32Array.from(extractor.features(item.text, bounds[w], bounds[w + 1])),
        cue: modules.holdsAttackCue(item.text, bounds[w], bounds[w + 1]),
        teaches: !rolePlay || modules.readJailbreak(item.text.slice(bounds[w], bounds[w + 1])).strong,
      });
    }
    item.jailbreak = item.text.length >= o.jailbreakMinLength ? modules.readJailbreak(item.text).features : null;
  }
  return items;
}

/** AdaGrad logistic regression over sparse samples {features, label, weight}, classes weighted to count equally. */
function fitSparse(samples, o) {
  const dims = 1 << o.bits;
  let positive = 0;
  let negative = 0;
  for (const s of samples) s.label === 1 ? (positive += s.weight) : (negative += s.weight);
  const classWeight = [(positive + negative) / (2 * negative), (positive + negative) / (2 * positive)];
  const w = new Float64Array(dims);
  const g2 = new Float64Array(dims).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const order = samples.map((_, i) => i);
  const next = random(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffle(order, next);
    for (const i of order) {
      const s = samples[i];
      const unit = 1 / Math.sqrt(s.features.length || 1);
      let z = bias;
      for (const k of s.features) z += w[k] * unit;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - s.label) * classWeight[s.label] * s.weight;
      for (const k of s.features) {
        const gk = g * unit + o.l2 * w[k];
        g2[k] += gk * gk;
        w[k] -= (o.learningRate * gk) / Math.sqrt(g2[k]);
      }
      biasG2 += g * g;
      bias -= (o.learningRate * g) / Math.sqrt(biasG2);
    }
  }
  return { w, bias };
}

const sparseScore = (model, features) => {
  let z = model.bias;
  const unit = 1 / Math.sqrt(features.length || 1);
  for (const k of features) z += model.w[k] * unit;
  return 1 / (1 + Math.exp(-z));
};

/** The attack classifier, in two rounds (see the top of this file). */
function fitClassifier(items, o) {
  const samples = (keep) => {
    const out = [];
    for (const item of items) {
      if (item.label === 0) {
        const n = item.windows.length;
        for (const w of item.windows) out.push({ features: w.features, label: 0, weight: 1 / Math.sqrt(n) });
        continue;
      }
      const windows = item.windows.filter((w) => w.teaches);
      const n = windows.length;
      if (n === 0) continue;
      if (keep === null) {
        for (const w of windows) out.push({ features: w.features, label: 1, weight: 1 / n });
        continue;
      }
      const scores = windows.map((w) => sparseScore(keep, w.features));
      const best = Math.max(...scores);
      windows.forEach((w, k) => {
        if (scores[k] === best || scores[k] >= 0.5) out.push({ features: w.features, label: 1, weight: 1 });
      });
    }
    return out;
  };
  const first = fitSparse(samples(null), o);
  return fitSparse(samples(first), o);
}

/** The jailbreak model: dense logistic regression over the genre's counts, classes weighted equally. */
function fitJailbreak(items, o) {
  const rows = items.filter((item) => item.jailbreak !== null);
  const dims = rows[0]?.jailbreak.length ?? 0;
  const w = new Float64Array(dims);
  let bias = 0;
  const positive = rows.filter((r) => r.label === 1).length;
  const negative = rows.length - positive;
  if (positive === 0 || negative === 0) return { w, bias: -10 };
  const classWeight = [rows.length / (2 * negative), rows.length / (2 * positive)];
  const order = rows.map((_, i) => i);
  const next = random(o.seed + 1);
  for (let epoch = 0; epoch < o.jailbreakEpochs; epoch++) {
    shuffle(order, next);
    const rate = o.jailbreakLearningRate / (1 + epoch * 0.1);
    for (const i of order) {
      const x = rows[i].jailbreak;
      let z = bias;
      for (let k = 0; k < dims; k++) z += w[k] * x[k];
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - rows[i].label) * classWeight[rows[i].label];
      for (let k = 0; k < dims; k++) w[k] -= rate * (g * x[k] + 1e-4 * w[k]);
      bias -= rate * g;
    }
  }
  return { w, bias };
}

const denseScore = (model, x) => {
  let z = model.bias;
  for (let k = 0; k < x.length; k++) z += model.w[k] * x[k];
  return 1 / (1 + Math.exp(-z));
};

/** What the scanner's classifier reads of an item: its best window that holds an attack cue (0 for none). */
export const gatedScore = (model, item) => {
  let best = 0;
  for (const w of item.windows) if (w.cue) best = Math.max(best, sparseScore(model, w.features));
  return best;
};
/** The built-in reviewer's reading: the best window, cue or not. */
export const ungatedScore = (model, item) => {
  let best = 0;
  for (const w of item.windows) best = Math.max(best, sparseScore(model, w.features));
  return best;
};
export const jailbreakScore = (model, item) => (item.jailbreak === null ? 0 : denseScore(model, item.jailbreak));

/** Benign sources with fewer texts than this are pooled when a threshold is chosen. */
const SMALL_SOURCE = 300;

/**
 * The lowest threshold at which every benign source holds at most `fpr` of its texts, given
 * each benign text's out-of-fold score: per source, the score its `floor(n * fpr)`-th highest
 * text has, just above it; the most of those over sources, within [floor, ceiling].
 */
export function thresholdFor(scoresBySource, fpr, floor, ceiling, log = () => {}) {
  let t = floor;
  // A source of a few dozen texts cannot say what one in five hundred is: the small ones are
  // judged together.
  const pooled = {};
  for (const [source, scores] of Object.entries(scoresBySource)) {
    const key = scores.length < SMALL_SOURCE ? 'smaller sources together' : source;
    (pooled[key] ??= []).push(...scores);
  }
  for (const [source, scores] of Object.entries(pooled)) {
    const sorted = [...scores].sort((a, b) => b - a);
    const allowed = Math.floor(sorted.length * fpr);
    const needed = allowed < sorted.length ? sorted[allowed] + 1e-6 : floor;
    log(`  ${source}: ${sorted.length} benign texts, at most ${allowed} held from ${needed.toFixed(4)}`);
    t = Math.max(t, needed);
  }
  return Math.min(ceiling, t);
}

/**
 * Both models and their thresholds from featurized `items`. `log(message)` hears progress.
 * The thresholds come out of fold (see the top of this file); the models from all items.
 */
export function trainScanner(items, options = {}, log = () => {}) {
  const o = { ...DEFAULTS, ...options };
  const oof = { gated: {}, ungated: {}, jailbreak: {} };
  if (o.thresholdFolds !== 'family' && o.thresholdFolds !== 'hash') throw new Error(`thresholdFolds is 'family' or 'hash', not ${o.thresholdFolds}`);
  const folds =
    o.thresholdFolds === 'family'
      ? [...new Set(items.filter((item) => item.label === 0).map((item) => item.family))].map((family) => ({ name: family, out: (item) => item.family === family }))
      : Array.from({ length: o.folds }, (_, fold) => ({ name: String(fold + 1), out: (item) => foldOf(item.text, o.folds) === fold }));
  for (const fold of folds) {
    const train = items.filter((item) => !fold.out(item));
    const held = items.filter((item) => fold.out(item) && item.label === 0);
    log(`fold ${fold.name}: training on ${train.length} texts`);
    const classifier = fitClassifier(train, o);
    const jailbreak = fitJailbreak(train, o);
    for (const item of held) {
      (oof.gated[item.source] ??= []).push(gatedScore(classifier, item));
      (oof.ungated[item.source] ??= []).push(ungatedScore(classifier, item));
      if (item.jailbreak !== null) (oof.jailbreak[item.source] ??= []).push(jailbreakScore(jailbreak, item));
    }
  }
  log('classifier, out of fold:');
  const threshold = thresholdFor(oof.gated, o.targetFpr, o.floor, o.ceiling, log);
  log('jailbreak model, out of fold:');
  const jailbreakThreshold = thresholdFor(oof.jailbreak, o.targetFpr, o.floor, o.ceiling, log);
  log('reviewer suspicion, out of fold:');
  const suspicion = Math.min(threshold, thresholdFor(oof.ungated, o.suspicionFpr, 0.2, o.ceiling, log));
  log(`final models: training on ${items.length} texts`);
  const classifier = fitClassifier(items, o);
  const jailbreak = fitJailbreak(items, o);
  // A model trained on all the data is surer of itself than the fold models were: on the texts
  // it learned from it must not hold more than half the target either, whichever is higher.
  const seen = { gated: {}, jailbreak: {} };
  for (const item of items) {
    if (item.label !== 0) continue;
    (seen.gated[item.source] ??= []).push(gatedScore(classifier, item));
    if (item.jailbreak !== null) (seen.jailbreak[item.source] ??= []).push(jailbreakScore(jailbreak, item));
  }
  const final = {
    threshold: Math.max(threshold, thresholdFor(seen.gated, o.targetFpr / 2, o.floor, o.ceiling)),
    jailbreakThreshold: Math.max(jailbreakThreshold, thresholdFor(seen.jailbreak, o.targetFpr / 2, o.floor, o.ceiling)),
  };
  log(`thresholds: classifier ${final.threshold.toFixed(3)} (out of fold ${threshold.toFixed(3)}), jailbreak model ${final.jailbreakThreshold.toFixed(3)} (out of fold ${jailbreakThreshold.toFixed(3)}), reviewer suspicion ${suspicion.toFixed(3)}`);
  return { classifier, jailbreak, threshold: final.threshold, jailbreakThreshold: final.jailbreakThreshold, suspicion: Math.min(suspicion, final.threshold), options: o };
}

/** The classifier's weights quantised to one signed byte each, as attack-model.ts reads them. */
export function quantize(classifier) {
  let largest = 0;
  for (const x of classifier.w) largest = Math.max(largest, Math.abs(x));
  const scale = largest / 127 || 1;
  const bytes = new Int8Array(classifier.w.length);
  for (let k = 0; k < classifier.w.length; k++) bytes[k] = Math.max(-127, Math.min(127, Math.round(classifier.w[k] / scale)));
  return { bias: Number(classifier.bias.toPrecision(9)), scale: Number(scale.toPrecision(9)), weights: Buffer.from(bytes.buffer).toString('base64') };
}

/** A trained result as the scan workers' models (the shapes attack-model.ts and jailbreak-signals.ts take). */
export function serialize(trained, label) {
  const q = quantize(trained.classifier);
  const round = (x) => Number(x.toPrecision(6));
  const high = round(trained.threshold + (1 - trained.threshold) / 2);
  return {
    attack: { label, bits: trained.options.bits, bias: q.bias, scale: q.scale, threshold: round(trained.threshold), high, suspicion: round(trained.suspicion), weights: q.weights },
    jailbreak: {
      label: `${label}-jailbreak`,
      weights: [...trained.jailbreak.w].map((x) => Number(x.toPrecision(6))),
      bias: Number(trained.jailbreak.bias.toPrecision(6)),
      threshold: round(trained.jailbreakThreshold),
      minLength: trained.options.jailbreakMinLength,
    },
  };
}
