// Adversarial inputs for a regular expression, built from the pattern itself, and the
// regular expressions a scanner module exports. Shared by the linearity test
// (test/scanner/linear-rules.test.ts) and the bench (bench/scan-time.js), so both feed
// every rule the same texts. Plain ESM so that the bench runs it without a build step.
//
// A backtracking engine is slow on a text that a pattern almost matches, over and over:
// the search starts at every position where the pattern's opening can match and each start
// reads far before it fails (`curl x | curl x | …` for a pipe-to-shell rule), or one start
// splits a long run many ways between overlapping quantifiers (`\s+\s*x` on spaces). So
// the inputs are, for each pattern:
//   - prefixes of texts the pattern matches, each repeated to the size asked: the pattern
//     starts at every repetition and fails at the next one (the first shape);
//   - for every quantifier that may repeat without bound (or more than a few times), the
//     text leading to it, its body repeated to the size, and a character that fails the
//     rest (the second shape);
//   - whole matches repeated, for the work done per match.
// Texts are drawn from the pattern's own literals and character classes, one choice of
// alternative at a time, with a seeded generator: the same pattern always gives the same
// inputs.
import { RegExpParser } from '@eslint-community/regexpp';

/** Characters tried for a character class, a set or a dot: one of each sort a rule tells apart. */
const ALPHABET = [
  'a', 'e', 's', 'x', 'A', 'Z', '0', '7', '_', ' ', '\t', '\n', '\r', '-', '.', ',', ':', ';', '/', '\\', '|', '&',
  "'", '"', '`', '(', ')', '[', ']', '{', '}', '<', '>', '=', '+', '*', '#', '@', '$', '!', '?', '~', '%', '^',
  '\u00e9', '\u0436', '\u4e2d', '\u306e', '\u0627', '\u200b', '\u00a0', '\u2014', '\u201c', '\u201d', '\ud83d\ude00',
];

/** The character that ends an input built to fail: no rule reads a control character as part of a word or a command. */
export const FAIL = '\u0001';

/** A small seeded generator (mulberry32): the same seed, the same inputs. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** The characters of ALPHABET that a one-character node (a class, a set, a dot) matches under the regex's flags. */
function matcherOf(raw, flags, cache) {
  const key = raw;
  let chars = cache.get(key);
  if (chars === undefined) {
    const kept = flags.replace(/[gyd]/g, '');
    let re;
    try {
      re = new RegExp(`^(?:${raw})$`, kept);
    } catch {
      re = null;
    }
    chars = re === null ? [] : ALPHABET.filter((c) => re.test(c));
    cache.set(key, chars);
  }
  return chars;
}

function contains(ancestor, node) {
  for (let n = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

/**
 * One text drawn from the pattern. `force` maps an alternation node to the index of the
 * alternative to take; `target` is a quantifier whose iterations are recorded (the text
 * before it, one iteration's text); `bounds` collects the length of the text after every
 * element, where a prefix may be cut.
 */
function draw(ast, flags, rng, { force = new Map(), target = null, cache }) {
  let out = '';
  const bounds = [];
  let before = null;
  let body = null;
  const groups = new Map();
  const pick = (list) => list[Math.floor(rng() * list.length)];

  const alternatives = (node) => {
    const forced = force.get(node);
    const i = forced ?? Math.floor(rng() * node.alternatives.length);
    alternative(node.alternatives[i]);
  };
  const alternative = (alt) => {
    for (const element of alt.elements) {
      visit(element);
      bounds.push(out.length);
    }
  };
  const oneChar = (node) => {
    const chars = matcherOf(node.raw, flags, cache);
    if (chars.length > 0) out += pick(chars);
  };
  const visit = (node) => {
    switch (node.type) {
      case 'Character':
        out += String.fromCodePoint(node.value);
        return;
      case 'CharacterClass':
      case 'CharacterSet':
      case 'ExpressionCharacterClass':
        oneChar(node);
        return;
      case 'Assertion':
        // Anchors and lookarounds write nothing; a drawn text may then miss a lookaround,
        // which only makes it an almost-match, the shape wanted anyway.
        return;
      case 'Backreference': {
        const refs = Array.isArray(node.resolved) ? node.resolved : [node.resolved];
        for (const ref of refs) if (groups.has(ref)) out += groups.get(ref);
        return;
      }
      case 'Group':
      case 'CapturingGroup': {
        const from = out.length;
        alternatives(node);
        if (node.type === 'CapturingGroup') groups.set(node, out.slice(from));
        return;
      }
      case 'Quantifier': {
        const leadsToTarget = target !== null && target !== node && contains(node, target);
        const cap = Math.min(node.max, node.min + 2);
        let times = node.min + Math.floor(rng() * (cap - node.min + 1));
        if (leadsToTarget || node === target) times = Math.max(times, 1);
        for (let k = 0; k < times; k++) {
          const from = out.length;
          if (node === target && k === 0) before = out;
          visit(node.element);
          if (node === target && k === 0) body = out.slice(from);
          bounds.push(out.length);
        }
        return;
      }
      default:
        return;
    }
  };
  alternatives(ast);
  return { text: out, bounds, before, body };
}

/** The alternation nodes from the pattern down to `node`, each with the alternative that leads there. */
function pathTo(node) {
  const force = new Map();
  let child = node;
  for (let n = node.parent; n; child = n, n = n.parent) {
    if (n.type === 'Alternative') {
      const owner = n.parent;
      if (owner && 'alternatives' in owner) force.set(owner, owner.alternatives.indexOf(n));
    }
  }
  void child;
  return force;
}

function walk(node, visit) {
  visit(node);
  if ('alternatives' in node && Array.isArray(node.alternatives)) for (const alt of node.alternatives) walk(alt, visit);
  if (node.type === 'Alternative') for (const element of node.elements) walk(element, visit);
  if (node.type === 'Quantifier') walk(node.element, visit);
  if (node.type === 'Assertion' && 'alternatives' in node) return;
}

const repeatTo = (unit, size) => (unit.length === 0 ? '' : unit.repeat(Math.ceil(size / unit.length)).slice(0, size));

/** Whether an alternative holds more than literal characters: a quantifier, a group, a lookaround. */
const structured = (alt) => alt.elements.some((e) => e.type !== 'Character' && e.type !== 'CharacterClass' && e.type !== 'CharacterSet');

/**
 * The adversarial shapes of one regular expression: each `{ shape, unit, pump, tail }`,
 * where the text of a size is `shape === 'repeat' ? unit repeated : unit + pump repeated + tail`.
 * Use `inputOf(shape, size)` to build it. `limit` caps how many are returned (the most
 * distinct first).
 */
export function adversarialShapes(regex, { seed = 1, limit = 64 } = {}) {
  const flags = regex.flags;
  const ast = parser.parsePattern(regex.source, 0, regex.source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
  const cache = new Map();
  const rng = random(seed);
  const shapes = new Map();
  const add = (shape) => {
    const key = `${shape.shape}\u0000${shape.unit}\u0000${shape.pump ?? ''}\u0000${shape.tail ?? ''}`;
    if (shape.shape === 'repeat' && shape.unit.length === 0) return;
    if (shape.shape === 'pump' && shape.pump.length === 0) return;
    if (!shapes.has(key)) shapes.set(key, shape);
  };

  // Draws: a few free ones, and one through every structured alternative of every alternation.
  const forcings = [new Map(), new Map(), new Map()];
  walk(ast, (node) => {
    if (!('alternatives' in node) || !Array.isArray(node.alternatives) || node.alternatives.length < 2) return;
    node.alternatives.forEach((alt, i) => {
      if (!structured(alt) && node.type !== 'Pattern') return;
      const force = pathTo(alt.elements[0] ?? alt);
      force.set(node, i);
      forcings.push(force);
    });
  });
  for (const force of forcings) {
    const { text, bounds } = draw(ast, flags, rng, { force, cache });
    add({ shape: 'repeat', unit: text });
    // Prefixes cut at up to eight element boundaries spread over the text.
    const cuts = [...new Set(bounds.filter((b) => b > 0 && b < text.length))].sort((a, b) => a - b);
    const step = Math.max(1, Math.floor(cuts.length / 8));
    for (let i = cuts.length - 1; i >= 0; i -= step) add({ shape: 'repeat', unit: text.slice(0, cuts[i]) });
  }

  // Pumps: every quantifier that may repeat more than a few times.
  walk(ast, (node) => {
    if (node.type !== 'Quantifier' || node.max < 8) return;
    const force = pathTo(node);
    const { before, body } = draw(ast, flags, rng, { force, target: node, cache });
    if (before === null || body === null || body.length === 0) return;
    add({ shape: 'pump', unit: before, pump: body, tail: FAIL });
    // The same run opened over and over: `a.a.a.…` read from every `a`.
    add({ shape: 'repeat', unit: before + body.repeat(8) + FAIL });
  });

  // Pumps first: each aims at one quantifier, and a pattern of many alternatives has more
  // drawn texts than the limit.
  const all = [...shapes.values()];
  return [...all.filter((s) => s.shape === 'pump'), ...all.filter((s) => s.shape !== 'pump')].slice(0, limit);
}

/**
 * The text of `size` characters (about) for a shape, as one flat string: V8 reads a string
 * built by repeat and slice through its parts, slower on some patterns than the same text
 * flat, which would be timed as the pattern's work.
 */
export function inputOf(shape, size) {
  const text = shape.shape === 'repeat' ? repeatTo(shape.unit, size) : shape.unit + repeatTo(shape.pump, Math.max(0, size - shape.unit.length - shape.tail.length)) + shape.tail;
  return JSON.parse(JSON.stringify(text));
}

/** A short, printable name for a shape, for reports. */
export function describeShape(shape) {
  const show = (s) => JSON.stringify(s.length > 40 ? `${s.slice(0, 37)}...` : s);
  return shape.shape === 'repeat' ? `${show(shape.unit)} repeated` : `${show(shape.unit)} + ${show(shape.pump)} repeated + ${show(shape.tail)}`;
}

/**
 * The regular expressions a module exports: RegExp values, and those inside exported arrays
 * and objects (a rule's `.pattern`), each with a name saying where it was found.
 */
export function exportedPatterns(moduleName, namespace) {
  const found = [];
  const seen = new Set();
  const take = (name, value, depth) => {
    if (value instanceof RegExp) {
      if (!seen.has(value)) {
        seen.add(value);
        found.push({ name, regex: value });
      }
      return;
    }
    if (depth >= 3 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => take(`${name}[${i}]`, item, depth + 1));
      return;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return;
    for (const [key, item] of Object.entries(value)) take(`${name}.${key}`, item, depth + 1);
  };
  for (const [key, value] of Object.entries(namespace)) take(`${moduleName}:${key}`, value, 0);
  return found;
}

/**
 * Runs `regex` over `text` as a scan does, every match in turn, and returns how many
 * matched. `test` on a global copy: it finds the same matches without building an array
 * for each, whose garbage would be timed with the pattern.
 */
export function matchAllOf(regex, text) {
  const flags = regex.flags.replace('y', '');
  const global = new RegExp(regex.source, flags.includes('g') ? flags : `${flags}g`);
  let count = 0;
  let last = -1;
  while (global.test(text)) {
    count++;
    if (global.lastIndex === last) global.lastIndex++;
    last = global.lastIndex;
  }
  return count;
}

/**
 * The regular-expression literals written in a TypeScript source, wherever they stand (in
 * a function too), each as a RegExp with its line. Patterns built with `new RegExp(…)` are
 * not literals: those are read from what the module exports.
 */
export async function regexLiteralsIn(fileName, sourceText) {
  const ts = (await import('typescript')).default;
  const source = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.ES2022, true);
  const found = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(source);
      const cut = text.lastIndexOf('/');
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ name: `${fileName}:${line}`, regex: new RegExp(text.slice(1, cut), text.slice(cut + 1)) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The names of the module-level constants of a TypeScript source whose value is built with `new RegExp(…)`. */
export async function builtPatternConstants(fileName, sourceText) {
  const ts = (await import('typescript')).default;
  const source = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.ES2022, true);
  const names = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (init && ts.isNewExpression(init) && init.expression.getText(source) === 'RegExp' && ts.isIdentifier(declaration.name)) {
        names.push(declaration.name.text);
      }
    }
  }
  return names;
}
