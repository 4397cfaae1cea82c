import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/gate-process.js';
import { anchorsOf, proseLines, slug } from '../harness/markdown-anchors.js';

/**
 * Every relative link in README.md, bench/README.md and docs/*.md resolves (issue 34 item 8): the file it names
 * exists, and its `#anchor`, in the same file or another, is the GitHub slug of a heading there.
 * http(s) and mailto links are not followed.
 */

/** Each broken link of the files, as `file:line: target (why)`. */
export function brokenLinks(root: string, files: string[]): string[] {
  const broken: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorCache.get(file);
    if (found === undefined) anchorCache.set(file, (found = anchorsOf(readFileSync(file, 'utf8'))));
    return found;
  };
  for (const file of files) {
    const lines = proseLines(readFileSync(file, 'utf8'));
    lines.forEach((line, i) => {
      for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1]!;
        if (/^(https?:|mailto:)/i.test(target)) continue;
        const where = `${relative(root, file)}:${i + 1}: ${target}`;
        const hash = target.indexOf('#');
        const path = hash === -1 ? target : target.slice(0, hash);
        const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
        const to = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        if (!existsSync(to)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor === undefined || anchor === '') continue;
        if (statSync(to).isDirectory() || !to.endsWith('.md')) {
          broken.push(`${where} (an anchor into something that is not a markdown file)`);
          continue;
        }
        if (!anchors(to).has(anchor.toLowerCase())) broken.push(`${where} (no heading makes #${anchor})`);
      }
    });
  }
  return broken;
}

const docFiles = (root: string) => [
  join(root, 'README.md'),
  ...[join(root, 'bench', 'README.md')].filter((file) => existsSync(file)),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name)),
];

describe('documentation links', () => {
  it('every relative link in README.md, bench/README.md and docs/*.md names a file and a heading that exist', () => {
    const files = docFiles(ROOT);
    expect(files.length).toBeGreaterThan(2);
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });

  it('docs/README.md lists every page of docs/', () => {
    const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
    const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md');
    for (const page of pages) expect(index, page).toContain(`](${page})`);
  });

  it('a broken file, a broken anchor and a duplicate heading are told apart from good links', () => {
    const root = mkdtempSync(join(tmpdir(), 'gate-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(
        join(root, 'README.md'),
        [
          '# Top',
          '[ok](docs/a.md) [ok](docs/a.md#the-gate-command-its-options) [ok](docs/a.md#notes-1) [ok](#top)',
          '[web](https://example.com/#x) `[code](nowhere.md)`',
          '```',
          '[fenced](nowhere.md)',
          '```',
          '[gone](docs/missing.md) [bad anchor](docs/a.md#nope) [bad here](#bottom) [third](docs/a.md#notes-2)',
        ].join('\n'),
      );
      writeFileSync(join(root, 'docs', 'a.md'), '# A\n\n## The `gate` command: its options\n\n## Notes\n\n## Notes\n');
      expect(brokenLinks(root, docFiles(root))).toEqual([
        'README.md:7: docs/missing.md (no such file)',
        'README.md:7: docs/a.md#nope (no heading makes #nope)',
        'README.md:7: #bottom (no heading makes #bottom)',
        'README.md:7: docs/a.md#notes-2 (no heading makes #notes-2)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('makes GitHub slugs', () => {
    expect(slug('People, sign-in and the HTTP surface')).toBe('people-sign-in-and-the-http-surface');
    expect(slug('Reference: choices where the spec says "not shown"')).toBe('reference-choices-where-the-spec-says-not-shown');
    expect(slug("Crews' `gate runner`, the reference_runner")).toBe('crews-gate-runner-the-reference_runner');
  });
});
