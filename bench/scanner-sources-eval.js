// How the whole scanner does on the labelled sources of training/scanner-sources.js: the
// committed models on every source, and, leaving each trainable source out in turn, models
// trained by the same recipe without it (training/attack-training.js), measured on it. Used by
// bench/scanner-quality.js.
import { DEFAULTS, featurize, serialize, trainingItems, trainScanner, workerModules } from '../training/attack-training.js';
import { round } from './lib.js';

/** Held (a finding of medium or above), short texts held, and the kinds that held, over `items`. */
export async function tallySource(items, scan) {
  const t = { texts: items.length, held: 0, short_texts: 0, short_held: 0, by_type: {}, held_by_kind: {} };
  for (const item of items) {
    const result = await scan(item.text);
    const type = (t.by_type[item.type] ??= { held: 0, texts: 0 });
    type.texts++;
    const short = item.text.length <= SHORT;
    if (short) t.short_texts++;
    if (!result.flagged) continue;
    t.held++;
    type.held++;
    if (short) t.short_held++;
    for (const kind of new Set(result.findings.filter((f) => f.severity !== 'low').map((f) => f.kind))) t.held_by_kind[kind] = (t.held_by_kind[kind] ?? 0) + 1;
  }
  t.rate = round(t.held / Math.max(1, t.texts), 4);
  t.short_rate = t.short_texts === 0 ? null : round(t.short_held / t.short_texts, 4);
  return t;
}

/** Texts of at most this many characters are counted apart: the issue's bound for them is tighter. */
export const SHORT = 60;

/**
 * For each family of `families`: train the recipe on every shipped source but that family's,
 * then scan the family's sources with the models it made. `scanWith(models)` returns a scan
 * function; `log` hears progress.
 */
export async function leaveOneSourceOut({ sources, families, root, scanWith, log }) {
  const modules = await workerModules(root);
  const out = {};
  for (const family of families) {
    const started = performance.now();
    const items = trainingItems(sources, { exceptFamily: family });
    featurize(items, modules, DEFAULTS);
    const trained = trainScanner(items, {}, () => {});
    const models = serialize(trained, `without-${family}`);
    const scan = scanWith(models);
    const held = {};
    for (const source of sources.filter((s) => s.family === family)) {
      held[source.name] = { label: source.label === 1 ? 'attack' : 'benign', ...(await tallySource(source.items, scan)) };
    }
    out[family] = {
      thresholds: { classifier: models.attack.threshold, jailbreak_model: models.jailbreak.threshold, reviewer_suspicion: models.attack.suspicion },
      trained_on_texts: items.length,
      sources: held,
      seconds: round((performance.now() - started) / 1000, 1),
    };
    log(`  without ${family}: ${Object.entries(held).map(([name, t]) => `${name} ${t.held}/${t.texts} held (${(100 * t.rate).toFixed(1)}%)`).join(', ')}  [${out[family].seconds} s]`);
  }
  return out;
}

/** Texts whose verdict changes when whitespace or a bracketed number is appended (none, if the scanner is right). */
export async function verdictChanges(texts, scan) {
  const changed = [];
  for (const text of texts) {
    const base = (await scan(text)).flagged;
    for (const suffix of ['  \n\t ', ' [3]', ' (12)', '\n[7]\n']) {
      if ((await scan(text + suffix)).flagged !== base) {
        changed.push({ text: text.slice(0, 120), suffix });
        break;
      }
    }
  }
  return changed;
}
