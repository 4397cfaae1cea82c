#!/usr/bin/env node
// Trains the scanner's attack classifier and jailbreak model and writes
// workers/scan/attack-weights.ts, the committed models the scan workers load. Needs the build
// (npm run build) and the data sets in ../shared/data beside the checkout.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedDataDir } from '../bench/lib.js';
import { DEFAULTS, featurize, serialize, trainingItems, trainScanner, workerModules } from './attack-training.js';
import { loadSources } from './scanner-sources.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `node training/attack-model.js [options]

Trains the scanner's two learned parts on every source whose licence lets shipped weights
learn from it (training/scanner-sources.js lists them and their licences):
  - the attack classifier: hashed character and word n-grams of windows, logistic regression,
    two rounds so that an attack's harmless windows do not count as attacks;
  - the jailbreak model: logistic regression over counts of the genre's wordings.
Each threshold is chosen out of fold on the training data, each benign source family scored
by models trained without it: the lowest at which no benign source holds more than
${DEFAULTS.targetFpr * 100}% of its texts. Writes workers/scan/attack-weights.ts;
run npm run build afterwards so the scan workers load it. The same data, options and
Node.js version give the same file, which records what it was trained on.

Options:
  --data DIR        the shared data folder (default: ../shared/data beside the checkout)
  --out FILE        where to write (default: workers/scan/attack-weights.ts)
  --bits N          feature hash width in bits, 10 to 22 (default ${DEFAULTS.bits})
  --epochs N        passes over the data per round (default ${DEFAULTS.epochs})
  --help            this text`;

function parse(argv) {
  const o = { data: sharedDataDir(ROOT), out: join(ROOT, 'workers', 'scan', 'attack-weights.ts'), bits: DEFAULTS.bits, epochs: DEFAULTS.epochs };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    const name = arg.replace(/^--/, '');
    if (!arg.startsWith('--') || !(name in o)) throw new Error(`unknown argument ${arg} (see --help)`);
    const value = argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value`);
    if (typeof o[name] === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${arg} must be a positive number`);
      o[name] = n;
    } else o[name] = resolve(value);
  }
  if (!Number.isInteger(o.bits) || o.bits < 10 || o.bits > 22) throw new Error('--bits must be an integer from 10 to 22');
  if (!Number.isInteger(o.epochs)) throw new Error('--epochs must be an integer');
  return o;
}

/** What each source gave: its licence, its origin and how many texts fed the weights. */
function provenance(sources, items) {
  const counts = {};
  for (const item of items) counts[item.source] = (counts[item.source] ?? 0) + 1;
  return sources
    .filter((s) => counts[s.name] !== undefined)
    .map((s) => ({ source: s.name, licence: s.licence, origin: s.origin, texts: counts[s.name], ...(s.versions ? { versions: s.versions } : {}) }));
}

async function main() {
  const o = parse(process.argv.slice(2));
  const started = performance.now();
  const sources = loadSources({ dataDir: o.data, root: ROOT });
  const items = trainingItems(sources);
  process.stdout.write(`texts: ${items.length} (${items.filter((i) => i.label === 1).length} attacks) from ${new Set(items.map((i) => i.source)).size} sources\n`);
  const modules = await workerModules(ROOT);
  featurize(items, modules, { ...DEFAULTS, bits: o.bits });
  const trained = trainScanner(items, { bits: o.bits, epochs: o.epochs }, (line) => process.stdout.write(`${line}\n`));
  const provisional = serialize(trained, 'pending');
  const digest = createHash('sha256').update(provisional.attack.weights).update(JSON.stringify(provisional.jailbreak.weights)).digest('hex');
  const label = `gate-attack/2-${digest.slice(0, 8)}`;
  const models = serialize(trained, label);
  const training = {
    sources: provenance(sources, items),
    left_out: 'sources under share-alike or unstated licences (Schema-Guided Dialogue, LoCoMo, BIPIA tables and code answers and the attacks inserted in them), and BIPIA bare text attacks (see training/attack-training.js)',
    options: { bits: o.bits, epochs: o.epochs, learning_rate: DEFAULTS.learningRate, l2: DEFAULTS.l2, seed: DEFAULTS.seed, folds: DEFAULTS.folds, target_fpr: DEFAULTS.targetFpr, suspicion_fpr: DEFAULTS.suspicionFpr },
    jailbreak_features: modules.JAILBREAK_FEATURES,
    node: process.version,
  };
  const body = `// Written by training/attack-model.js; do not edit. Retrain with: node training/attack-model.js
import type { SerializedAttackModel } from './attack-model.js';
import type { JailbreakModel } from './jailbreak-signals.js';

/** What the models were trained on and how (for a retraining to compare against). */
export const ATTACK_MODEL_TRAINING = ${JSON.stringify(training, null, 2)} as const;

export const JAILBREAK_MODEL: JailbreakModel = ${JSON.stringify(models.jailbreak, null, 2)};

export const ATTACK_MODEL: SerializedAttackModel = {
  label: '${label}',
  bits: ${models.attack.bits},
  bias: ${models.attack.bias},
  scale: ${models.attack.scale},
  threshold: ${models.attack.threshold},
  high: ${models.attack.high},
  suspicion: ${models.attack.suspicion},
  weights:
    '${models.attack.weights}',
};
`;
  writeFileSync(o.out, body);
  process.stdout.write(`wrote ${o.out}: ${label}, ${(1 << o.bits).toLocaleString('en-US')} weights, ${(body.length / 1024).toFixed(0)} KB, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

main().catch((error) => {
  process.stderr.write(`attack-model: ${error.message}\n`);
  process.exit(2);
});
