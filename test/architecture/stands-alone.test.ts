import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedOptions, recordedPath } from '../../bench/lib.js';
import { ROOT } from '../harness/gate-process.js';
import { anchorsOf } from '../harness/markdown-anchors.js';

/**
 * The repository stands alone (issue 47 item 8): a reader of a clone needs nothing beside it.
 * The rules, over every file `git ls-files` names that is text:
 *
 * 1. No file names a folder of the machine it was written on: `/work/...`, `/home/<user>`,
 *    `/Users/<user>`. A fixture that needs such a path (a scanner's test text, say) builds it
 *    at run time, so the file never holds it whole. A temporary folder (`/tmp/...`) is fine in
 *    a test or a fixture, where it stands for any machine's; but a results file
 *    (`bench/results/*.json`) records what happened, so none of its values is an absolute
 *    path: a bench records paths through `recordedPath` (bench/lib.js), relative to the checkout.
 * 2. Code, tests, benches and scripts cite our own `docs/`, never a document outside the
 *    repository: no "spec 1" or "Spec 1" (or 2, 3), no DESIGN, FLOORS or FACTS document. The rules they
 *    cite are stated in our words in docs/ (docs/protocol.md for the protocol). Test texts
 *    under fixtures/ are data, not citations, and are not read for this rule.
 * 3. Markdown (README.md, docs/, bench/README.md, test/README.md) may say the gate implements a
 *    specification, but names no document outside the repository either (DESIGN.md, FLOORS.md,
 *    FACTS.md, the shared folder's spec), and cites no part of the specification ("spec 1",
 *    "Spec 2's", "specification 3", in any case, a line break between the words or not): a page
 *    cites the rule where our docs state it, docs/protocol.md#<heading> for the protocol, and
 *    says "the protocol names no verb for this" where the specification is silent. The public
 *    data sets beside the checkout (`../shared/data`) are the one thing outside it a page may
 *    name, since `npm run test:data` and the benches read them.
 *    This file spells out what rules 1 to 3 look for, so they do not read it.
 * 4. A `docs/<page>.md#<anchor>` cited anywhere names a page and a heading that exist (but in
 *    test/docs/links.test.ts, which writes pages of its own into a temporary folder to test
 *    the link checker on).
 */

const trackedFiles: string[] = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && existsSync(join(ROOT, file)));

/** The file's text, or null when it is binary (a NUL in its first 8 KB) or too large to be prose or code. */
function textOf(file: string): string | null {
  const bytes = readFileSync(join(ROOT, file));
  if (bytes.length > 4 * 1024 * 1024) return null;
  if (bytes.subarray(0, 8192).includes(0)) return null;
  return bytes.toString('utf8');
}

const texts = new Map<string, string>();
for (const file of trackedFiles) {
  const text = textOf(file);
  if (text !== null) texts.set(file, text);
}

/** `file:line: the matched text` for each match of `pattern` (global) in the files. */
function hits(files: Iterable<string>, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = texts.get(file)!.split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(pattern)) found.push(`${file}:${i + 1}: ${m[0]}`);
    });
  }
  return found;
}

/** A folder of one machine: /work/..., /home/<user>, /Users/<user> (not inside a longer path or a URL). */
export const MACHINE_PATH = /(?<![\w.~/-])\/(?:work\/[\w.-]+|home\/[\w.-]+|Users\/[\w.-]+)/g;

/** A citation of a document outside the repository. */
export const OUTSIDE_DOCUMENT = /\b[Ss]pec(?:ification)?(?:'s)? [123]\b|\b(?:DESIGN|FLOORS|FACTS)(?:\.md)?\b|shared\/spec\b|\bspec\/[123]-/g;

/** In markdown: a named outside document, or the shared folder for anything but its data sets. */
export const OUTSIDE_DOCUMENT_IN_MARKDOWN = /\b(?:DESIGN|FLOORS|FACTS)\.md\b|shared\/spec\b|(?:\.\.\/)+shared\/(?!data\b)/g;

/** In markdown: a part of the specification, "spec 1" to "specification 3", in any case, across a line break too. */
export const SPEC_PART_IN_MARKDOWN = /\bspec(?:ification)?(?:'s)?\s+[123]\b/gi;

/** A docs page and anchor cited in prose or a comment: docs/<page>.md#<anchor>. */
const DOC_ANCHOR = /(?<![\w./-])docs\/([\w-]+\.md)#([\w-]+)/g;

const THIS_FILE = 'test/architecture/stands-alone.test.ts';
const isMarkdown = (file: string) => file.endsWith('.md');
const isData = (file: string) => file.startsWith('fixtures/') || file.startsWith('test/fixtures/') || file === 'package-lock.json';

/** `file:line: the matched text` for each match of `pattern` (global) in the files' whole text, so a match may span lines. */
function textHits(files: Iterable<string>, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = texts.get(file)!;
    for (const m of text.matchAll(pattern)) found.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ')}`);
  }
  return found;
}

/** Every string in a JSON value, with its path. */
function stringsOf(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsOf(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringsOf(v, `${path}.${k}`));
  return [];
}

describe('the repository stands alone', () => {
  it('has text files to judge', () => {
    expect(texts.size).toBeGreaterThan(500);
    expect([...texts.keys()].filter((f) => f.startsWith('bench/results/') && f.endsWith('.json')).length).toBeGreaterThan(10);
  });

  it('no tracked file names a folder of the machine it was written on', () => {
    expect(hits([...texts.keys()].filter((f) => f !== THIS_FILE), MACHINE_PATH)).toEqual([]);
  });

  it('no recorded result holds an absolute path', () => {
    const absolute = /^(?:\/|~\/|[A-Za-z]:[\\/])|(?:^|[\s("'=:])\/(?:tmp|var|srv|mnt|opt|root|private)\//;
    const found: string[] = [];
    for (const [file, text] of texts) {
      if (!(file.startsWith('bench/results/') && file.endsWith('.json'))) continue;
      for (const [path, value] of stringsOf(JSON.parse(text))) if (absolute.test(value)) found.push(`${file} ${path}: ${value}`);
    }
    expect(found).toEqual([]);
  });

  it('code, tests, benches and scripts cite no document outside the repository', () => {
    const code = [...texts.keys()].filter((file) => !isMarkdown(file) && !isData(file) && file !== THIS_FILE);
    expect(hits(code, OUTSIDE_DOCUMENT)).toEqual([]);
  });

  it('markdown names no document outside the repository', () => {
    expect(hits([...texts.keys()].filter(isMarkdown).filter((f) => !isData(f)), OUTSIDE_DOCUMENT_IN_MARKDOWN)).toEqual([]);
  });

  it("markdown cites no part of the specification, but our docs' pages", () => {
    const pages = [...texts.keys()].filter(isMarkdown).filter((f) => !isData(f));
    expect(pages).toContain('docs/protocol.md');
    expect(textHits(pages, SPEC_PART_IN_MARKDOWN)).toEqual([]);
  });

  it('every docs/<page>.md#<anchor> cited names a page and a heading that exist', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    let cited = 0;
    for (const [file, text] of texts) {
      if (isData(file) || file === 'test/docs/links.test.ts') continue;
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(DOC_ANCHOR)) {
          cited++;
          const page = join(ROOT, 'docs', m[1]!);
          if (!existsSync(page)) {
            broken.push(`${file}:${i + 1}: docs/${m[1]} (no such page)`);
            continue;
          }
          let known = anchors.get(page);
          if (known === undefined) anchors.set(page, (known = anchorsOf(readFileSync(page, 'utf8'))));
          if (!known.has(m[2]!)) broken.push(`${file}:${i + 1}: docs/${m[1]}#${m[2]} (no such heading)`);
        }
      });
    }
    expect(cited).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('the patterns catch what they are for and pass what they are not', () => {
    const all = (pattern: RegExp, text: string) => [...text.matchAll(pattern)].map((m) => m[0]);
    // Folders of a machine, and what is not one.
    expect(all(MACHINE_PATH, 'see /work/shared/FLOORS.md and /home/alice/x, "/Users/bob/gate"')).toEqual(['/work/shared', '/home/alice', '/Users/bob']);
    expect(all(MACHINE_PATH, "join(tmpdir(), 'x'), /tmp/gate-crew-work, /srv/work/plugin, https://example.com/home/x, ../work/y")).toEqual([]);
    // Outside documents, and words that only look like them.
    expect(all(OUTSIDE_DOCUMENT, '(spec 1 Authentication 5) spec 3\'s rules, (spec 2 gv.ingest), FACTS "Clients", DESIGN rule 7, FLOORS.md')).toEqual([
      'spec 1',
      'spec 3',
      'spec 2',
      'FACTS',
      'DESIGN',
      'FLOORS.md',
    ]);
    expect(all(OUTSIDE_DOCUMENT, 'docs/protocol.md#events, a spec of options, specs 12, design rule, the facts')).toEqual([]);
    // A comment's sentence may start with the word: "Spec 2 `gv.promote`'s crew-sheet checks" cites the part as much.
    expect(all(OUTSIDE_DOCUMENT, "Spec 2 `gv.promote`'s checks; Spec 1's guards")).toEqual(['Spec 2', 'Spec 1']);
    expect(all(OUTSIDE_DOCUMENT_IN_MARKDOWN, 'see `../shared/FLOORS.md`; data at `../shared/data/locomo-dev/`')).toEqual(['../shared/', 'FLOORS.md']);
    // Parts of the specification in markdown, whatever their case or line breaks, and what only looks like one.
    expect(all(SPEC_PART_IN_MARKDOWN, "(spec 1 Errors), Spec 2's verbs, specification 3, beyond spec\n  2; SPEC 1")).toEqual([
      'spec 1',
      'Spec 2',
      'specification 3',
      'spec\n  2',
      'SPEC 1',
    ]);
    expect(all(SPEC_PART_IN_MARKDOWN, '[spec-choices.md](spec-choices.md), the spec says "not shown", specs 1, spec 12, a spec of 3 options, [protocol](protocol.md#error-codes)')).toEqual([]);
  });

  it('a bench records a path relative to the checkout, and one far outside it by its name alone', () => {
    expect(recordedPath(join(ROOT, 'bench', 'results', 'org.json'))).toBe('bench/results/org.json');
    expect(recordedPath(ROOT)).toBe('.');
    expect(recordedPath(join(ROOT, '..', 'shared', 'data'))).toBe('../shared/data');
    expect(recordedPath(join(ROOT, '..', '..', 'elsewhere', 'scratch', 'org-quiet.json'))).toBe('outside the checkout: org-quiet.json');
    expect(recordedPath('')).toBe('');
    expect(recordedOptions({ out: join(ROOT, 'bench', 'results', 'x.json'), rows: 5, mode: 'fast', data: '' })).toEqual({
      out: 'bench/results/x.json',
      rows: 5,
      mode: 'fast',
      data: '',
    });
  });
});
