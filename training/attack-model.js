#!/usr/bin/env node
// Trains the scanner's attack classifier and writes workers/scan/attack-weights.ts, the
// committed model the scan workers load. Needs the build (npm run build) and the data in
// ../shared/data (PromptShield's train split, the LoCoMo development half).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedDataDir } from '../bench/lib.js';
import { collectSamples, DEFAULTS, trainAttackModel } from './attack-training.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `node training/attack-model.js [options]

Trains the attack classifier (hashed character and word n-grams, logistic regression) on
PromptShield's train split, the LoCoMo development half as benign text, our own benign notes
(fixtures/scan-training/benign-notes.jsonl) and some dependencies' README files, then writes
the quantised model to workers/scan/attack-weights.ts. Run npm run build afterwards so the
scan workers load it. The same data, options and Node.js version give the same file: the
file records what it was trained on, so a retraining can be compared byte for byte.

Options:
  --data DIR        the shared data folder (default: ../shared/data beside the checkout)
  --out FILE        where to write (default: workers/scan/attack-weights.ts)
  --bits N          feature hash width in bits (default ${DEFAULTS.bits})
  --epochs N        passes over the data (default ${DEFAULTS.epochs})
  --threshold P     probability from which a window that speaks to its reader is a finding
                    (default ${DEFAULTS.threshold}; ${DEFAULTS.unaddressedThreshold} for one that does not)
  --help            this text`;

function parse(argv) {
  const o = { data: sharedDataDir(ROOT), out: join(ROOT, 'workers', 'scan', 'attack-weights.ts'), bits: DEFAULTS.bits, epochs: DEFAULTS.epochs, threshold: DEFAULTS.threshold };
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
  if (o.threshold >= 1) throw new Error('--threshold must be below 1');
  return o;
}

async function main() {
  const o = parse(process.argv.slice(2));
  const started = performance.now();
  const { samples, counts, docVersions } = collectSamples({ dataDir: o.data, root: ROOT });
  process.stdout.write(`samples: ${samples.length} (${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')})\n`);
  const model = await trainAttackModel(samples, { root: ROOT, bits: o.bits, epochs: o.epochs, threshold: o.threshold }, (epoch, loss) =>
    process.stdout.write(`epoch ${epoch}/${o.epochs}: weighted log loss ${loss.toFixed(4)}\n`),
  );
  const digest = createHash('sha256').update(model.weights).digest('hex');
  const label = `gate-attack/1-${digest.slice(0, 8)}`;
  const trainSha = createHash('sha256').update(readFileSync(join(o.data, 'promptshield', 'train.jsonl'))).digest('hex');
  const training = {
    sources: { promptshield_train_sha256: trainSha, locomo: 'locomo-dev (all five conversations)', own_notes: 'fixtures/scan-training/benign-notes.jsonl', dependency_docs: docVersions },
    samples: counts,
    options: { bits: o.bits, epochs: o.epochs, learning_rate: DEFAULTS.learningRate, l2: DEFAULTS.l2, seed: DEFAULTS.seed },
    node: process.version,
  };
  const body = `// Written by training/attack-model.js; do not edit. Retrain with: node training/attack-model.js
import type { SerializedAttackModel } from './attack-model.js';

/** What the model was trained on and how (for a retraining to compare against). */
export const ATTACK_MODEL_TRAINING = ${JSON.stringify(training, null, 2)} as const;

export const ATTACK_MODEL: SerializedAttackModel = {
  label: '${label}',
  bits: ${model.bits},
  bias: ${model.bias},
  scale: ${model.scale},
  threshold: ${model.threshold},
  unaddressedThreshold: ${model.unaddressedThreshold},
  high: ${model.high},
  weights:
    '${model.weights}',
};
`;
  writeFileSync(o.out, body);
  process.stdout.write(`wrote ${o.out}: ${label}, ${(1 << model.bits).toLocaleString('en-US')} weights, ${(body.length / 1024).toFixed(0)} KB, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

main().catch((error) => {
  process.stderr.write(`attack-model: ${error.message}\n`);
  process.exit(2);
});
