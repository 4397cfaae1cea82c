import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMaskedKind, SEVERITY_RANK, type Finding, type Severity } from '../../workers/scan/finding.js';
import { scanText } from '../../workers/scan/scan-text.js';

interface Expected {
  /** The row's content type the fixture is scanned as; absent, none is given (the strictest reading). */
  content_type?: string;
  /** A look-alike that must not hold the row: nothing above low. */
  clean: boolean;
  /** A true positive the scanner is known to miss, and why: recorded so the bench counts it. */
  known_miss?: string;
  flagged: boolean;
  kinds: string[];
  findings: Array<{ kind: string; severity: Severity; text: string }>;
}

const dir = new URL('../../fixtures/scan/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Record<string, Expected>;
const files = readdirSync(dir).filter((name) => name !== 'expected.json').sort();
const read = (name: string): string => readFileSync(new URL(name, dir), 'utf8');

describe('fixture inventory', () => {
  it('lists every fixture file in expected.json and nothing else', () => {
    expect(Object.keys(expected).sort()).toEqual(files);
  });

  it('holds at least 25 fixtures, at least 10 of them clean look-alikes', () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
    expect(files.filter((name) => expected[name]!.clean).length).toBeGreaterThanOrEqual(10);
  });

  it('holds at least 10 executable true positives and 10 executable look-alikes, the look-alikes in rows that act on them too', () => {
    const positives = files.filter((name) => name.startsWith('executable-') && expected[name]!.known_miss === undefined);
    const lookAlikes = files.filter((name) => name.startsWith('clean-exec-'));
    expect(positives.length).toBeGreaterThanOrEqual(10);
    expect(lookAlikes.length).toBeGreaterThanOrEqual(10);
    expect(lookAlikes.filter((name) => ['skill', 'bundle_skill', 'prompt_template'].includes(expected[name]!.content_type ?? '')).length).toBeGreaterThanOrEqual(5);
  });

  it('covers every detector family with true positives', () => {
    const kinds = new Set(Object.values(expected).flatMap((e) => (e.clean ? [] : e.kinds)));
    for (const kind of [
      'secret.aws-access-key-id',
      'secret.aws-secret-access-key',
      'secret.github-token',
      'secret.gitlab-token',
      'secret.slack-token',
      'secret.openai-api-key',
      'secret.anthropic-api-key',
      'secret.private-key',
      'secret.jwt',
      'secret.high-entropy-assignment',
      'injection.instruction-override',
      'injection.role-impersonation',
      'injection.persona-override',
      'injection.hidden-comment',
      'injection.hidden-css',
      'injection.hidden-attribute',
      'unicode.bidi-control',
      'unicode.tag-characters',
      'unicode.zero-width-run',
      'unicode.mixed-script-word',
      'executable.download-execute',
      'executable.decode-execute',
      'executable.reverse-shell',
      'secret.github-token-malformed',
      'personal.card-number',
      'personal.card-security-code',
      'personal.ssn',
      'personal.iban',
      'personal.health-contact',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });
});

const isSecret = (f: Finding): boolean => f.kind.startsWith('secret.');
const scan = (name: string) => scanText(read(name), { contentType: expected[name]!.content_type });

describe.each(files)('fixture %s', (name) => {
  it('gives exactly the expected findings, flag and offsets', async () => {
    const text = read(name);
    const want = expected[name]!;
    const result = await scan(name);

    expect(result.findings.map((f) => f.kind)).toEqual(want.kinds);
    expect(result.flagged).toBe(want.flagged);
    expect(
      result.findings.map((f) => ({ kind: f.kind, severity: f.severity, text: text.slice(f.start, f.end) })),
    ).toEqual(want.findings);
    expect(result.flagged).toBe(result.findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK.medium));
    if (want.clean) {
      expect(result.findings.every((f) => f.severity === 'low')).toBe(true);
    }
    if (want.known_miss !== undefined) expect(want.clean || result.flagged).toBe(false);
    expect(result.scanner).toMatch(/^gate-scan\/4 gate-attack\/2-[0-9a-f]{8} secretlint-preset-recommend\/12\.0\.0$/);
  });

  it('reports sorted, in-bounds findings whose excerpt and detail never carry the match', async () => {
    const text = read(name);
    const { findings } = await scan(name);
    for (let i = 1; i < findings.length; i++) expect(findings[i]!.start).toBeGreaterThanOrEqual(findings[i - 1]!.start);
    for (const f of findings) {
      expect(f.kind).toMatch(/^(?:secret|injection|executable|unicode|personal)\.[a-z0-9-]+$/);
      expect(0 <= f.start && f.start < f.end && f.end <= text.length).toBe(true);
      const span = text.slice(f.start, f.end);
      expect(f.excerpt).toMatch(/…\(\d+ more\)$/);
      expect(f.excerpt).not.toBe(span);
      if (isSecret(f)) {
        expect(f.excerpt.includes(span)).toBe(false);
        expect(f.excerpt.startsWith(span.slice(0, 4))).toBe(true);
        expect(f.excerpt).toBe(`${span.slice(0, 4)}…(${[...span].length - 4} more)`);
      }
      if (span.length >= 4) expect(f.detail.includes(span)).toBe(false);
      expect(f.detail).toMatch(/^[A-Z0-9].*\.$/);
    }
  });

  it('masks every finding unit for unit, but leaves executable commands readable', async () => {
    const text = read(name);
    const { findings: all, masked: maskedOrNull } = await scan(name);
    const findings = all.filter((f) => isMaskedKind(f.kind));
    // Null says nothing is masked: the text itself.
    expect(maskedOrNull === null).toBe(findings.length === 0);
    const masked = maskedOrNull ?? text;
    expect(masked.length).toBe(text.length);
    for (const f of findings) {
      expect(masked.slice(f.start, f.end)).toBe('█'.repeat(f.end - f.start));
      expect(masked.includes(text.slice(f.start, f.end))).toBe(false);
    }
    // A reviewer judges a command by reading it.
    for (const f of all.filter((f) => f.kind.startsWith('executable.'))) expect(masked.slice(f.start, f.end)).toBe(text.slice(f.start, f.end));
    // Outside the masked findings the text is untouched.
    const covered = new Set(findings.flatMap((f) => Array.from({ length: f.end - f.start }, (_, k) => f.start + k)));
    for (let i = 0; i < text.length; i++) if (!covered.has(i)) expect(masked[i]).toBe(text[i]);
  });
});
