// The labelled sources the scanner learns from and is measured on, each read from where it
// lives (../shared/data beside the checkout, or our own fixtures), never copied into the
// repository. One list serves the training script (training/attack-model.js) and the bench
// (bench/scanner-quality.js), so both read the same texts the same way.
//
// A source is one origin of text: leave-one-source-out trains on every trainable source but
// one and measures on that one, so a figure never includes text from where the model
// learned. `shipped: true` marks the sources whose licence lets the committed weights learn
// from them (MIT, Apache-2.0, BSD, CC0, CC BY, our own text); share-alike and unlicensed sets
// are measured only, and a model trained for a measurement is never written to the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locomoClaim } from '../bench/locomo-claim.js';

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

/** Dependencies whose README files are benign documentation nobody here wrote (names fixed so retraining reproduces). */
export const DOC_PACKAGES = Object.freeze([
  'yauzl', 'piscina', 'smol-toml', 'undici', 'yazl', 'preact', '@noble/ed25519', 'ajv', 'openid-client',
  '@humanwhocodes/momoa', 'jose', '@decimalturn/toml-patch', 'zod', 'better-sqlite3', 'pino', 'pg', 'fast-check',
  'commander', 'p-queue', 'file-type', 'canonicalize', 'exif-reader', 'sqlite-vec', 'pg-pool', 'semver', 'debug',
  'magic-string', 'picomatch', 'yaml', 'chai', 'eventsource-parser', 'oauth4webapi', 'tar-stream', 'sonic-boom',
]);

/** Paragraphs and code lines of the named packages' README files (installed in node_modules), and each package's version. */
export function readDependencyDocs(root) {
  const texts = [];
  const seen = new Set();
  const versions = {};
  for (const name of DOC_PACKAGES) {
    const dir = join(root, 'node_modules', name);
    const readme = join(dir, 'README.md');
    if (!existsSync(readme)) continue;
    versions[name] = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
    const readmeText = readFileSync(readme, 'utf8');
    for (const part of readmeText.split(/\n[ \t]*\n/)) {
      const text = part.trim();
      if (text.length >= 30 && text.length <= 1500 && !seen.has(text)) {
        seen.add(text);
        texts.push({ text, type: 'paragraph' });
      }
    }
    // Each line of the code blocks alone too: a one-line snippet or a config line is what a
    // short technical note often is, and code alone is no attack.
    for (const block of readmeText.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) {
      for (const line of block[1].split('\n')) {
        const text = line.trim();
        if (text.length >= 15 && text.length <= 200 && !seen.has(text)) {
          seen.add(text);
          texts.push({ text, type: 'code-line' });
        }
      }
    }
  }
  return { texts, versions };
}

/**
 * Every source, in a fixed order. Each: {name, label (1 attack, 0 benign), licence, shipped
 * (its licence lets the committed weights learn from it), origin (where it was read), items:
 * [{text, type}]} where `type` says what the item is within its source (an attack family, a
 * carrier kind). `dataDir` is the shared data folder; `root` the repository.
 * A source whose files are missing throws, naming the file.
 */
export function loadSources({ dataDir, root }) {
  const need = (file) => {
    if (!existsSync(file)) throw new Error(`scanner data not found: ${file} (put the shared data sets at ../shared/data beside the checkout, or pass --data DIR)`);
    return file;
  };
  const sources = [];
  const add = (source) => sources.push(source);

  // PromptShield (MIT): train and validation splits; its test split is kept apart by whoever
  // holds it. The "control" rows are ordinary requests labelled as attacks: label noise, left out.
  const ps = [...readJsonLines(need(join(dataDir, 'promptshield', 'train.jsonl'))), ...readJsonLines(need(join(dataDir, 'promptshield', 'val.jsonl')))];
  add({
    name: 'promptshield-attacks',
    family: 'promptshield',
    label: 1,
    licence: 'MIT',
    shipped: true,
    origin: 'promptshield/train.jsonl, val.jsonl',
    items: ps.filter((r) => r.label === 1 && r.attack_type !== 'control').map((r) => ({ text: r.prompt, type: r.attack_type })),
  });
  add({
    name: 'promptshield-benign',
    family: 'promptshield',
    label: 0,
    licence: 'MIT',
    shipped: true,
    origin: 'promptshield/train.jsonl, val.jsonl',
    items: ps.filter((r) => r.label === 0).map((r) => ({ text: r.prompt, type: r.attack_type })),
  });

  // BIPIA (MIT code and attack strings; the invoice emails MIT; tables and code answers CC BY-SA).
  const bipiaLabelled = readJsonLines(need(join(dataDir, 'bipia', 'labelled-train.jsonl')));
  const bipiaContexts = readJsonLines(need(join(dataDir, 'bipia', 'contexts-train.jsonl')));
  add({
    name: 'bipia-inserted',
    family: 'bipia',
    label: 1,
    licence: 'MIT attacks in MIT emails and CC BY-SA 4.0 tables and code answers',
    // Only the attacks inserted into emails may feed shipped weights (see carrierShipped).
    shipped: true,
    origin: 'bipia/labelled-train.jsonl (indirect-email, indirect-table, indirect-code)',
    items: bipiaLabelled.filter((r) => r.label === 1 && !r.attack_type.startsWith('indirect-bare')).map((r) => ({ text: r.prompt, type: r.attack_type })),
  });
  add({
    name: 'bipia-attack-strings',
    family: 'bipia',
    label: 1,
    licence: 'MIT',
    shipped: true,
    origin: 'bipia/attacks-train.jsonl',
    items: readJsonLines(need(join(dataDir, 'bipia', 'attacks-train.jsonl'))).map((r) => ({ text: r.text, type: `bare-${r.kind}` })),
  });
  add({
    name: 'bipia-contexts',
    family: 'bipia',
    label: 0,
    licence: 'MIT emails; CC BY-SA 4.0 tables and code answers',
    shipped: true,
    origin: 'bipia/contexts-train.jsonl',
    items: bipiaContexts.map((r) => ({ text: r.text, type: r.task })),
  });

  add({
    name: 'jailbreaks',
    family: 'jailbreak-llms',
    label: 1,
    licence: 'MIT',
    shipped: true,
    origin: 'jailbreak-llms/jailbreaks-2023-05-07.jsonl',
    items: readJsonLines(need(join(dataDir, 'jailbreak-llms', 'jailbreaks-2023-05-07.jsonl'))).map((r) => ({ text: r.prompt, type: r.platform })),
  });
  add({
    name: 'awesome-prompts',
    family: 'awesome-chatgpt-prompts',
    label: 0,
    licence: 'CC0-1.0',
    shipped: true,
    origin: 'awesome-chatgpt-prompts/prompts-dev.jsonl',
    items: readJsonLines(need(join(dataDir, 'awesome-chatgpt-prompts', 'prompts-dev.jsonl'))).map((r) => ({ text: r.prompt, type: r.prompt_kind })),
  });
  add({
    name: 'taskmaster',
    family: 'taskmaster',
    label: 0,
    licence: 'CC-BY-4.0',
    shipped: true,
    origin: 'taskmaster/utterances.jsonl',
    items: readJsonLines(need(join(dataDir, 'taskmaster', 'utterances.jsonl'))).map((r) => ({ text: r.text, type: r.speaker })),
  });
  add({
    name: 'schema-guided-dialogue',
    family: 'schema-guided-dialogue',
    label: 0,
    licence: 'CC-BY-SA-4.0 (measured only)',
    shipped: false,
    origin: 'schema-guided-dialogue/utterances.jsonl',
    items: readJsonLines(need(join(dataDir, 'schema-guided-dialogue', 'utterances.jsonl'))).map((r) => ({ text: r.text, type: r.speaker })),
  });
  const locomo = readLocomo(need(join(dataDir, 'locomo-dev')));
  add({
    name: 'locomo',
    family: 'locomo',
    label: 0,
    licence: 'none stated (measured only)',
    shipped: false,
    origin: 'locomo-dev/*.json (turns as the gate stores them)',
    items: locomo.flatMap((c) => c.turns.map((text) => ({ text, type: `conversation-${c.id}` }))),
  });

  add({
    name: 'own-notes',
    family: 'own-notes',
    label: 0,
    licence: 'ours',
    shipped: true,
    origin: 'fixtures/scan-training/benign-notes.jsonl',
    items: readJsonLines(need(join(root, 'fixtures', 'scan-training', 'benign-notes.jsonl'))).map((r) => ({ text: r.text, type: `${r.kind}/${r.lang}` })),
  });
  const docs = readDependencyDocs(root);
  add({
    name: 'dependency-docs',
    family: 'dependency-docs',
    label: 0,
    licence: 'each package its own (MIT, ISC, Apache-2.0, BSD); see their package.json',
    shipped: true,
    origin: `node_modules/*/README.md of ${Object.keys(docs.versions).length} pinned dependencies`,
    versions: docs.versions,
    items: docs.texts,
  });
  add({
    name: 'red-team',
    family: 'red-team',
    label: 1,
    licence: 'ours',
    shipped: true,
    origin: 'fixtures/scan-training/red-team.jsonl',
    items: readJsonLines(need(join(root, 'fixtures', 'scan-training', 'red-team.jsonl'))).map((r) => ({ text: r.text, type: r.family })),
  });
  return sources;
}

/**
 * Whether an item of a shipped source may feed the committed weights: BIPIA's tables and
 * code answers are share-alike, so neither they nor the attacks inserted into them may.
 */
export function itemShipped(source, item) {
  if (!source.shipped) return false;
  if (source.name === 'bipia-contexts') return item.type === 'email';
  if (source.name === 'bipia-inserted') return item.type === 'indirect-email';
  return true;
}
