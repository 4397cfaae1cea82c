import { describe, expect, it } from 'vitest';
import { rawZip } from '../../fixtures/raw-zip.js';
import { inspectArchive } from '../../workers/bundle/inspect-archive.js';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../../workers/bundle/archive-limits.js';

const SKILL = { name: 's/SKILL.md', data: Buffer.from('# skill\n') };
const file = (name: string | Buffer, data = 'x') => ({ name, data: Buffer.from(data) });
const inspect = (bytes: Buffer, limits: Partial<ArchiveLimits> = {}, skill = true) =>
  inspectArchive(bytes, { ...DEFAULT_ARCHIVE_LIMITS, ...limits }, { skill });

describe('every limit is configurable and is its own archive_invalid detail', () => {
  const cases: Array<[string, Buffer, Partial<ArchiveLimits>]> = [
    ['archive_too_large', rawZip([SKILL, file('s/a.md', 'a'.repeat(200))]), { archiveMaxBytes: 100 }],
    ['too_many_entries', rawZip([SKILL, file('s/a.md'), file('s/b.md')]), { entriesMax: 2 }],
    ['member_too_large', rawZip([SKILL, file('s/a.md', 'abcdefghij'.repeat(10))]), { memberMaxBytes: 50 }],
    ['expanded_too_large', rawZip([SKILL, file('s/a.md', 'q'.repeat(60)), file('s/b.md', 'r'.repeat(60))]), { expandedMaxBytes: 100 }],
    ['ratio_exceeded', rawZip([SKILL, file('s/a.md', 'z'.repeat(400))]), { ratioMax: 10 }],
    // Every entry's own ratio is 1, but the compressed sizes they declare are more than the archive holds.
    ['aggregate_ratio_exceeded', rawZip([SKILL, { name: 's/a.md', data: Buffer.alloc(5000), compressedSize: 5000 }]), { ratioMax: 2 }],
    ['path_too_long', rawZip([SKILL, file(`s/${'n'.repeat(40)}.md`)]), { pathMaxBytes: 30 }],
    ['path_too_deep', rawZip([SKILL, file('s/a/b/c/d.md')]), { pathMaxSegments: 4 }],
  ];
  for (const [detail, bytes, limits] of cases) {
    it(detail, async () => {
      expect(await inspect(bytes, limits)).toMatchObject({ valid: false, detail });
      // Within the default limits the same archive is not refused for that reason.
      expect(await inspect(bytes)).not.toMatchObject({ detail });
    });
  }
});

describe('refused names, each by its own word', () => {
  const names: Array<[string, string | Buffer]> = [
    ['name_backslash', 's\\a.md'],
    ['name_colon', 's/a:b.md'],
    ['name_absolute', '/s/a.md'],
    ['name_control_character', 's/a\u0007.md'],
    ['name_control_character', 's/a\u202e.md'],
    ['name_empty', 's//a.md'],
    ['name_dot_segment', 's/./a.md'],
    ['name_dot_segment', 's/../a.md'],
    ['name_trailing_space_or_dot', 's/a.md '],
    ['name_trailing_space_or_dot', 's/dir./a.md'],
    ['name_reserved', 's/CON'],
    ['name_reserved', 's/lpt9.txt'],
    ['name_reserved', 's/aux.md'],
    ['name_not_utf8', Buffer.from([0x73, 0x2f, 0xff, 0x2e, 0x6d, 0x64])],
  ];
  for (const [detail, name] of names) {
    it(`${detail}: ${JSON.stringify(name.toString())}`, async () => {
      expect(await inspect(rawZip([SKILL, file(name)]))).toMatchObject({ valid: false, detail });
    });
  }

  it('a legacy code page name (no UTF-8 flag, a byte over 0x7f) is name_not_utf8', async () => {
    expect(await inspect(rawZip([SKILL, { ...file(Buffer.from([0x73, 0x2f, 0x82, 0x2e, 0x6d, 0x64])), flags: 0 }]))).toMatchObject({ detail: 'name_not_utf8' });
  });

  it('names equal after NFC and case folding collide', async () => {
    const composed = 's/caf\u00e9.md';
    const decomposed = 's/cafe\u0301.md';
    expect(await inspect(rawZip([SKILL, file(composed), file(decomposed)]))).toMatchObject({ detail: 'name_collision' });
    expect(await inspect(rawZip([SKILL, file('s/STRASSE.md'), file('s/straße.md')]))).toMatchObject({ detail: 'name_collision' });
  });

  it('a file colliding with a directory, either way round', async () => {
    expect(await inspect(rawZip([SKILL, file('s/a'), file('s/a/b.md')]))).toMatchObject({ detail: 'file_directory_collision' });
    expect(await inspect(rawZip([SKILL, file('s/a/b.md'), file('s/A')]))).toMatchObject({ detail: 'file_directory_collision' });
    expect(await inspect(rawZip([SKILL, { name: 's/d/', data: Buffer.alloc(0), method: 0 }, file('s/d')]))).toMatchObject({ detail: 'file_directory_collision' });
  });

  it('a name the local header spells differently from the central directory', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md'), localName: 's/b.md' }]))).toMatchObject({ detail: 'name_mismatch' });
  });

  it('an Info-ZIP Unicode path field naming something else', async () => {
    const other = Buffer.concat([Buffer.from([1, 0, 0, 0, 0]), Buffer.from('s/evil.sh')]);
    const extra = Buffer.concat([Buffer.from([0x75, 0x70, other.length, 0]), other]);
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md'), centralExtra: extra }]))).toMatchObject({ detail: 'name_mismatch' });
  });
});

describe('entry kinds and data', () => {
  it('only stored and deflated entries', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md'), method: 12, storedBytes: Buffer.from('bz') }]))).toMatchObject({ detail: 'unsupported_method' });
  });
  it('special files (a FIFO)', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/fifo'), method: 0, unixMode: 0o010644 }]))).toMatchObject({ detail: 'special_file' });
  });
  it('directories carry no bytes', async () => {
    expect(await inspect(rawZip([SKILL, { name: 's/d/', data: Buffer.from('hidden'), method: 0 }]))).toMatchObject({ detail: 'directory_with_bytes' });
  });
  it('a stored entry whose declared length is not its length', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md', 'abcdef'), method: 0, uncompressedSize: 4 }]))).toMatchObject({ detail: 'length_mismatch' });
  });
  it('a deflated entry inflating short of its declared length', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md', 'abcdef'), uncompressedSize: 60 }]))).toMatchObject({ detail: 'length_mismatch' });
  });
  it('a CRC that does not match the bytes', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md'), crc: 1234 }]))).toMatchObject({ detail: 'crc_mismatch' });
  });
  it('corrupt deflate data', async () => {
    expect(await inspect(rawZip([SKILL, { ...file('s/a.md', 'hello'), storedBytes: Buffer.from([0xff, 0xff, 0xff, 0xff]) }]))).toMatchObject({ detail: 'corrupt_data' });
  });
  it('entries sharing their bytes (the overlapping-files bomb)', async () => {
    // The first entry's data, as declared, runs over the second entry's header and data.
    const data = Buffer.from('shared bytes');
    const bytes = rawZip([SKILL, { name: 's/a.md', data, method: 0, compressedSize: data.length + 40, uncompressedSize: data.length + 40 }, file('s/b.md', 'tail')]);
    expect(await inspect(bytes)).toMatchObject({ detail: 'overlapping_entries' });
  });
  it('bytes after the end of central directory record', async () => {
    expect(await inspect(Buffer.concat([rawZip([SKILL]), Buffer.from('junk')]))).toMatchObject({ detail: 'trailing_data' });
  });
  it('a central directory that names more entries than it holds', async () => {
    expect(await inspect(rawZip([SKILL, file('s/a.md')], { entryCount: 3 }))).toMatchObject({ valid: false });
    const r = await inspect(rawZip([SKILL, file('s/a.md')], { entryCount: 3 }));
    expect(['corrupt_central_directory', 'truncated']).toContain(r.valid ? '' : r.detail);
  });
  it('a central directory offset past the end', async () => {
    expect(await inspect(rawZip([SKILL], { cdOffset: 10_000 }))).toMatchObject({ detail: 'truncated' });
  });
});

describe('the skill layout', () => {
  it('exactly one SKILL.md', async () => {
    expect(await inspect(rawZip([file('s/a.md')]))).toMatchObject({ detail: 'skill_md_missing' });
    expect(await inspect(rawZip([SKILL, file('s/sub/skill.md')]))).toMatchObject({ detail: 'skill_md_multiple' });
  });
  it('everything under its folder', async () => {
    expect(await inspect(rawZip([SKILL, file('other/a.md')]))).toMatchObject({ detail: 'outside_skill_folder' });
    expect(await inspect(rawZip([SKILL, { name: 'other/', data: Buffer.alloc(0), method: 0 }]))).toMatchObject({ detail: 'outside_skill_folder' });
  });
  it('a project map archive has no skill layout to keep', async () => {
    expect(await inspect(rawZip([file('src/a.ts'), file('README.md')]), {}, false)).toMatchObject({ valid: true });
  });
});
