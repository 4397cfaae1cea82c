import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `text` so that a reader, or a crash at any instant, sees the whole old
 * file or the whole new one: the text goes to a sibling temporary file, is fsynced, renamed
 * over the file, and the directory is fsynced so the rename itself survives a power cut.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  const dir = dirname(path);
  const temporary = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
}

/** Makes a rename or a new name in `dir` survive a power cut: the directory itself fsynced. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
