/**
 * ZIP inspection without extraction: the central directory is read with yauzl from the
 * bytes in memory, every entry is checked against the limits and naming rules before any
 * member is inflated, and members are then inflated one at a time into memory, hashed and
 * checked against their declared length and CRC. Nothing touches the disk and nothing is
 * executed. Every way an archive can fail has its own word, so the answer is always
 * "valid" or one named failure, never an exception.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import type { ArchiveLimits } from './archive-limits.js';
import { NameCollisions, pathProblem } from './member-path.js';
import { skillLayout, type Classification } from './skill-layout.js';
import type { ArchiveFailure } from './archive-failures.js';

export interface InspectedMember {
  path: string;
  content_hash: string;
  size_bytes: number;
  /** Set for a skill bundle; a project map's members carry the classification their manifest declares. */
  classification: Classification | null;
  /** A view into one buffer that holds every member, in directory order. */
  bytes: Uint8Array;
}

export type Inspection =
  | {
      valid: true;
      archive_hash: string;
      archive_size: number;
      entries: number;
      members: InspectedMember[];
      /** Most expanded bytes held at once while inspecting (the memory bound's measure). */
      peak_buffered_bytes: number;
    }
  | { valid: false; detail: ArchiveFailure; archive_hash: string; archive_size: number; peak_buffered_bytes: number };

export interface InspectOptions {
  /** Apply the skill bundle's layout rules (exactly one SKILL.md, everything under its folder). */
  skill: boolean;
}

/** An archive failing a rule: carries the rule's word up to the one place that answers it. */
class ArchiveInvalid extends Error {
  constructor(readonly detail: ArchiveFailure) {
    super(detail);
  }
}

const GP_ENCRYPTED = 0x0001;
const GP_UTF8 = 0x0800;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;
const INFO_ZIP_UNICODE_PATH = 0x7075;
const STORED = 0;
const DEFLATED = 8;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** yauzl's and zlib's messages, each mapped to the rule it reports. */
const LIBRARY_FAILURES: Array<[RegExp, ArchiveFailure]> = [
  [/End of central directory record signature not found/i, 'end_of_central_directory_missing'],
  [/Invalid comment length/i, 'trailing_data'],
  [/zip64/i, 'zip64_inconsistent'],
  [/multi-disk/i, 'multi_disk'],
  [/invalid central directory file header signature/i, 'corrupt_central_directory'],
  [/extra field length exceeds/i, 'corrupt_central_directory'],
  [/unexpected EOF/i, 'truncated'],
  [/strong encryption/i, 'encrypted'],
  [/invalid local file header signature/i, 'corrupt_local_header'],
  [/file data overflows file bounds/i, 'truncated'],
  [/size mismatch for stored file|too many bytes in the stream|not enough bytes in the stream/i, 'length_mismatch'],
  [/zip file too large/i, 'archive_too_large'],
];

function failureOf(error: unknown): ArchiveFailure {
  if (error instanceof ArchiveInvalid) return error.detail;
  const message = error instanceof Error ? error.message : String(error);
  for (const [pattern, detail] of LIBRARY_FAILURES) if (pattern.test(message)) return detail;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('Z_')) return 'corrupt_data';
  return 'corrupt_archive';
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface CheckedEntry {
  entry: Entry;
  path: string;
  directory: boolean;
}

function decodeName(entry: Entry): string {
  const raw = entry.fileNameRaw;
  let name: string;
  if ((entry.generalPurposeBitFlag & GP_UTF8) !== 0) {
    try {
      name = utf8.decode(raw);
    } catch {
      throw new ArchiveInvalid('name_not_utf8');
    }
  } else {
    // Without the UTF-8 flag a byte over 0x7f means a legacy code page: the name the
    // archive shows one tool is not the name it shows another, so it is refused.
    if (raw.some((b) => b > 0x7f)) throw new ArchiveInvalid('name_not_utf8');
    name = raw.toString('latin1');
  }
  for (const extra of entry.extraFields) {
    // Info-ZIP's Unicode path field: a second name for the same entry; it must say the same.
    if (extra.id !== INFO_ZIP_UNICODE_PATH) continue;
    let other: string;
    try {
      other = extra.data.length < 5 ? '' : utf8.decode(extra.data.subarray(5));
    } catch {
      throw new ArchiveInvalid('name_not_utf8');
    }
    if (other !== name) throw new ArchiveInvalid('name_mismatch');
  }
  return name;
}

function isDirectoryEntry(entry: Entry, name: string): boolean {
  if (name.endsWith('/')) return true;
  const host = entry.versionMadeBy >> 8;
  if (host === UNIX_HOST && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFDIR) return true;
  return (entry.externalFileAttributes & DOS_DIRECTORY) !== 0;
}

function checkFileType(entry: Entry, directory: boolean): void {
  if (entry.versionMadeBy >> 8 !== UNIX_HOST) return;
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === 0 || type === S_IFREG || (type === S_IFDIR && directory)) return;
  throw new ArchiveInvalid(type === S_IFLNK ? 'symlink' : 'special_file');
}

/** Every rule that the central directory alone can decide, for one entry. */
function checkEntry(entry: Entry, limits: ArchiveLimits, names: NameCollisions): CheckedEntry {
  if ((entry.generalPurposeBitFlag & GP_ENCRYPTED) !== 0) throw new ArchiveInvalid('encrypted');
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) throw new ArchiveInvalid('unsupported_method');
  const name = decodeName(entry);
  const directory = isDirectoryEntry(entry, name);
  checkFileType(entry, directory);
  const path = directory && name.endsWith('/') ? name.slice(0, -1) : name;
  const problem = pathProblem(path, limits);
  if (problem !== null) throw new ArchiveInvalid(problem);
  if (directory) {
    if (entry.uncompressedSize > 0) throw new ArchiveInvalid('directory_with_bytes');
  } else {
    if (entry.uncompressedSize > limits.memberMaxBytes) throw new ArchiveInvalid('member_too_large');
    if (entry.uncompressedSize > limits.ratioMax * Math.max(1, entry.compressedSize)) throw new ArchiveInvalid('ratio_exceeded');
  }
  const collision = names.add(path, directory);
  if (collision !== null) throw new ArchiveInvalid(collision);
  return { entry, path, directory };
}

function openArchive(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

/** Reads the whole central directory, checking each entry as it comes. */
function readDirectory(zip: ZipFile, limits: ArchiveLimits): Promise<CheckedEntry[]> {
  return new Promise((resolve, reject) => {
    const names = new NameCollisions();
    const entries: CheckedEntry[] = [];
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      zip.close();
      reject(error);
    };
    zip.on('entry', (entry: Entry) => {
      if (settled) return;
      try {
        entries.push(checkEntry(entry, limits, names));
      } catch (error) {
        return fail(error);
      }
      zip.readEntry();
    });
    zip.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(entries);
    });
    zip.on('error', fail);
    zip.readEntry();
  });
}

/** Local headers: the name and method they repeat must agree with the central directory. */
function readLocalHeader(zip: ZipFile, entry: Entry): Promise<{ fileDataStart: number; fileName: Buffer; compressionMethod: number; generalPurposeBitFlag: number }> {
  return new Promise((resolve, reject) =>
    zip.readLocalFileHeader(entry, {}, (error, header) => (error ? reject(error) : resolve(header))),
  );
}

/**
 * Entries whose stored data overlap: the "overlapping files" bomb makes thousands of
 * entries inflate one shared deflate stream, so every ratio looks modest while the whole
 * expands without bound. Each entry must own its bytes.
 */
function checkOverlaps(spans: Array<{ start: number; end: number }>): void {
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i]!.start < ordered[i - 1]!.end) throw new ArchiveInvalid('overlapping_entries');
  }
}

/**
 * Inflates one member straight into its place in `into` (sized by the declared lengths),
 * so memory is bounded by what the directory declared and no member is copied twice.
 */
function inflate(zip: ZipFile, entry: Entry, into: Uint8Array, at: number, held: { now: number; peak: number }): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        // yauzl stops a stream that passes its declared length; this is the second fence.
        if (length + chunk.length > entry.uncompressedSize) {
          stream.destroy(new ArchiveInvalid('length_mismatch'));
          return;
        }
        into.set(chunk, at + length);
        length += chunk.length;
        held.now += chunk.length;
        held.peak = Math.max(held.peak, held.now);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(into.subarray(at, at + length)));
    });
  });
}

export async function inspectArchive(input: Uint8Array, limits: ArchiveLimits, options: InspectOptions): Promise<Inspection> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const archive_hash = sha256(bytes);
  const archive_size = bytes.length;
  const held = { now: 0, peak: 0 };
  let zip: ZipFile | null = null;
  try {
    if (archive_size > limits.archiveMaxBytes) throw new ArchiveInvalid('archive_too_large');
    zip = await openArchive(bytes);
    if (zip.entryCount > limits.entriesMax) throw new ArchiveInvalid('too_many_entries');
    const entries = await readDirectory(zip, limits);
    let declared = 0;
    for (const e of entries) {
      if (!e.directory) declared += e.entry.uncompressedSize;
      if (declared > limits.expandedMaxBytes) throw new ArchiveInvalid('expanded_too_large');
    }
    if (declared > limits.ratioMax * archive_size) throw new ArchiveInvalid('aggregate_ratio_exceeded');
    const files = entries.filter((e) => !e.directory);
    let classify: ((path: string) => Classification) | null = null;
    if (options.skill) {
      const layout = skillLayout(
        files.map((f) => f.path),
        entries.filter((e) => e.directory).map((e) => e.path),
      );
      if ('problem' in layout) throw new ArchiveInvalid(layout.problem);
      classify = layout.classify;
    }
    const spans: Array<{ start: number; end: number }> = [];
    const members: InspectedMember[] = [];
    for (const e of entries) {
      const header = await readLocalHeader(zip, e.entry);
      if (!header.fileName.equals(e.entry.fileNameRaw)) throw new ArchiveInvalid('name_mismatch');
      if (
        header.compressionMethod !== e.entry.compressionMethod ||
        (header.generalPurposeBitFlag & GP_ENCRYPTED) !== (e.entry.generalPurposeBitFlag & GP_ENCRYPTED)
      ) {
        throw new ArchiveInvalid('local_header_mismatch');
      }
      spans.push({ start: e.entry.relativeOffsetOfLocalHeader, end: header.fileDataStart + e.entry.compressedSize });
    }
    checkOverlaps(spans);
    const into = new Uint8Array(files.reduce((n, f) => n + f.entry.uncompressedSize, 0));
    let at = 0;
    for (const f of files) {
      const data = await inflate(zip, f.entry, into, at, held);
      at += f.entry.uncompressedSize;
      if (data.length !== f.entry.uncompressedSize) throw new ArchiveInvalid('length_mismatch');
      if ((crc32(data) >>> 0) !== (f.entry.crc32 >>> 0)) throw new ArchiveInvalid('crc_mismatch');
      members.push({
        path: f.path,
        content_hash: sha256(data),
        size_bytes: data.length,
        classification: classify === null ? null : classify(f.path),
        bytes: data,
      });
    }
    return { valid: true, archive_hash, archive_size, entries: entries.length, members, peak_buffered_bytes: held.peak };
  } catch (error) {
    return { valid: false, detail: failureOf(error), archive_hash, archive_size, peak_buffered_bytes: held.peak };
  } finally {
    zip?.close();
  }
}
