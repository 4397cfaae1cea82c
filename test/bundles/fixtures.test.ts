import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { inspectArchive } from '../../workers/bundle/inspect-archive.js';
import { DEFAULT_ARCHIVE_LIMITS } from '../../workers/bundle/archive-limits.js';

const inspect = (name: string) => inspectArchive(readFileSync(join(ROOT, 'fixtures/bundles', name)), DEFAULT_ARCHIVE_LIMITS, { skill: true });

describe('the hostile archive fixtures, each answered by its named failure', () => {
  const failures: Array<[string, string]> = [
    ['zip-bomb.zip', 'ratio_exceeded'],
    ['zip-bomb-lying-size.zip', 'length_mismatch'],
    ['traversal-dotdot.zip', 'name_dot_segment'],
    ['traversal-absolute.zip', 'name_absolute'],
    ['traversal-backslash.zip', 'name_backslash'],
    ['symlink.zip', 'symlink'],
    ['encrypted.zip', 'encrypted'],
    ['truncated.zip', 'end_of_central_directory_missing'],
    ['zip64-inconsistent.zip', 'zip64_inconsistent'],
    ['duplicate-names.zip', 'duplicate_name'],
    ['case-collision.zip', 'name_collision'],
  ];
  for (const [file, detail] of failures) {
    it(`${file}: ${detail}`, async () => {
      expect(await inspect(file)).toMatchObject({ valid: false, detail });
    });
  }

  it('zip-bomb-lying-size.zip: inflation stops at the declared length, so memory stays near it', async () => {
    const r = await inspect('zip-bomb-lying-size.zip');
    expect(r.peak_buffered_bytes).toBeLessThan(70_000);
  });

  it('nested-bomb.zip: members are never opened, so inner bombs cost only their own stored size', async () => {
    const r = await inspect('nested-bomb.zip');
    expect(r.valid).toBe(true);
    if (!r.valid) return;
    expect(r.members.map((m) => [m.path, m.classification])).toEqual([
      ['nested/SKILL.md', 'skill'],
      ['nested/assets/inner-1.zip', 'asset'],
      ['nested/assets/inner-2.zip', 'asset'],
      ['nested/assets/inner-3.zip', 'asset'],
    ]);
    expect(r.peak_buffered_bytes).toBeLessThan(10_000);
  });

  it('zip64.zip: a consistent zip64 archive is valid', async () => {
    expect(await inspect('zip64.zip')).toMatchObject({ valid: true, entries: 2 });
  });

  it('skill-valid.zip: valid, classified by where each member sits in the skill folder', async () => {
    const r = await inspect('skill-valid.zip');
    expect(r.valid && r.members.map((m) => [m.path, m.classification])).toEqual([
      ['weather/SKILL.md', 'skill'],
      ['weather/scripts/forecast.py', 'script'],
      ['weather/assets/icon.txt', 'asset'],
      ['weather/docs/usage.md', 'document'],
    ]);
  });

  it('the fixtures are exactly what fixtures/make-fixtures.js makes (nothing downloaded)', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'fixtures/make-fixtures.js'), '--check'], { encoding: 'utf8' });
    expect(out).toContain('fixtures are as the script makes them');
  });
});
