import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { fsyncDirectory } from '../src/config/atomic-write.js';

const hexOf = (hash: string) => (hash.startsWith('sha256:') ? hash.slice(7) : hash);

/**
 * The content-addressed store of attachment bytes in the home: `objects/ab/<hex>` named by
 * the sha256 of the bytes, each written whole or not at all (a temp file, fsync, rename,
 * fsync of the folder), so a crash leaves either no object or the right one. Unfinished
 * uploads grow in `uploads/`, one file per writer and hash, fsynced per chunk, so an
 * upload resumes after a restart from the bytes that reached the disk. The journal refers
 * to objects by hash only.
 */
export class AttachmentStore {
  private readonly objects: string;
  private readonly uploads: string;

  constructor(root: string) {
    this.objects = join(root, 'objects');
    this.uploads = join(root, 'uploads');
    mkdirSync(this.objects, { recursive: true, mode: 0o700 });
    mkdirSync(this.uploads, { recursive: true, mode: 0o700 });
  }

  private objectPath(hash: string): string {
    const hex = hexOf(hash);
    return join(this.objects, hex.slice(0, 2), hex);
  }

  /** The file of one writer's unfinished upload; the name reveals neither writer nor hash. */
  partPath(writer: string, hash: string): string {
    return join(this.uploads, `${createHash('sha256').update(`${writer}\n${hexOf(hash)}`).digest('hex')}.part`);
  }

  async objectSize(hash: string): Promise<number | null> {
    try {
      return (await stat(this.objectPath(hash))).size;
    } catch {
      return null;
    }
  }

  async partSize(writer: string, hash: string): Promise<number> {
    try {
      return (await stat(this.partPath(writer, hash))).size;
    } catch {
      return 0;
    }
  }

  /** Appends a chunk at `offset` (the part's current length) and makes it durable before answering. */
  async appendChunk(writer: string, hash: string, offset: number, bytes: Uint8Array): Promise<void> {
    const path = this.partPath(writer, hash);
    // A fresh file, never the old one truncated: a part left by a completion a crash cut short is also an object's link.
    if (offset === 0) rmSync(path, { force: true });
    const file = await open(path, offset === 0 ? 'wx' : 'r+', 0o600);
    try {
      await file.write(bytes, 0, bytes.length, offset);
      await file.truncate(offset + bytes.length);
      await file.sync();
    } finally {
      await file.close();
    }
  }

  /** sha256 of an unfinished upload's bytes, read as a stream so the event loop stays free. */
  async partHash(writer: string, hash: string): Promise<string> {
    const digest = createHash('sha256');
    for await (const chunk of createReadStream(this.partPath(writer, hash))) digest.update(chunk as Buffer);
    return `sha256:${digest.digest('hex')}`;
  }

  async readPart(writer: string, hash: string): Promise<Buffer> {
    const file = await open(this.partPath(writer, hash), 'r');
    try {
      return await file.readFile();
    } finally {
      await file.close();
    }
  }

  dropPart(writer: string, hash: string): void {
    rmSync(this.partPath(writer, hash), { force: true });
  }

  /**
   * A verified upload's bytes become the object of its hash. A hard link, not a rename:
   * the part stays until its completion is journaled, so a crash in between leaves bytes
   * to complete from again rather than an upload that must start over. An object already
   * there has these very bytes (the name is their hash), another writer's or an earlier try's.
   */
  linkPart(writer: string, hash: string): void {
    const target = this.objectPath(hash);
    mkdirSync(join(target, '..'), { recursive: true, mode: 0o700 });
    try {
      linkSync(this.partPath(writer, hash), target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    fsyncDirectory(join(target, '..'));
  }

  /** Writes bytes as the object of `hash` (temp file, fsync, rename, fsync of the folder). */
  putObject(hash: string, bytes: Uint8Array): void {
    const target = this.objectPath(hash);
    const folder = join(target, '..');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temp = `${target}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
    fsyncDirectory(folder);
  }

  /** Removes an object (an erasure's): unlinked and the folder fsynced; answers whether it was there. */
  removeObject(hash: string): boolean {
    const target = this.objectPath(hash);
    if (!existsSync(target)) return false;
    rmSync(target, { force: true });
    fsyncDirectory(join(target, '..'));
    return true;
  }

  async readRange(hash: string, offset: number, length: number): Promise<Buffer> {
    const file = await open(this.objectPath(hash), 'r');
    try {
      const out = Buffer.alloc(length);
      const { bytesRead } = await file.read(out, 0, length, offset);
      return out.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  /**
   * Removes every partial file but those of `live` uploads (their part paths), and temp
   * files a crash left behind. A part of an upload completed, abandoned or past its time
   * to live is never read again: a new start of that upload writes from offset 0.
   */
  sweep(live: ReadonlySet<string>): number {
    let removed = 0;
    for (const name of readdirSync(this.uploads)) {
      const path = join(this.uploads, name);
      if (!live.has(path)) {
        rmSync(path, { force: true });
        removed++;
      }
    }
    for (const folder of readdirSync(this.objects)) {
      for (const name of readdirSync(join(this.objects, folder))) {
        if (name.endsWith('.tmp')) rmSync(join(this.objects, folder, name), { force: true });
      }
    }
    return removed;
  }
}
