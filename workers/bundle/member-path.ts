/**
 * The naming rules of a member path, one refusal word each. A path is checked as stored
 * (after decoding), never repaired: an archive that needs repair is refused whole.
 */
import type { ArchiveLimits } from './archive-limits.js';
import type { ArchiveFailure } from './archive-failures.js';

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
/** Windows device names, also with any extension (`con.txt` opens the console there). */
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/** The name of a path problem, or null. `path` has no trailing slash (directories lose theirs first). */
export function pathProblem(path: string, limits: ArchiveLimits): ArchiveFailure | null {
  if (path === '') return 'name_empty';
  if (Buffer.byteLength(path, 'utf8') > limits.pathMaxBytes) return 'path_too_long';
  if (path.includes('\\')) return 'name_backslash';
  if (path.includes(':')) return 'name_colon';
  if (path.startsWith('/')) return 'name_absolute';
  if (CONTROL_OR_FORMAT.test(path)) return 'name_control_character';
  const segments = path.split('/');
  if (segments.length > limits.pathMaxSegments) return 'path_too_deep';
  for (const segment of segments) {
    if (segment === '') return 'name_empty';
    if (segment === '.' || segment === '..') return 'name_dot_segment';
    if (segment.endsWith(' ') || segment.endsWith('.')) return 'name_trailing_space_or_dot';
    if (RESERVED.test(segment)) return 'name_reserved';
  }
  return null;
}

/**
 * The form two names collide in: NFC, then case folded. JavaScript has no full case fold;
 * upper then lower case reaches it for the cases that matter here (ß and ss, K and the
 * Kelvin sign, the Greek sigmas), and NFC again closes what the case change opened.
 */
export const foldedName = (path: string): string => path.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');

/**
 * Collisions between entries: the same stored name twice, two names equal once folded,
 * and a file standing where another entry needs a directory (or the reverse).
 */
export class NameCollisions {
  private readonly exact = new Set<string>();
  private readonly folded = new Set<string>();
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();

  /** Records one entry; answers the collision's name, or null. */
  add(path: string, isDirectory: boolean): ArchiveFailure | null {
    // A directory and a file of one name are not twins but a file/directory collision (below).
    const kind = isDirectory ? '/' : '';
    if (this.exact.has(path + kind)) return 'duplicate_name';
    this.exact.add(path + kind);
    const folded = foldedName(path);
    if (this.folded.has(folded + kind)) return 'name_collision';
    this.folded.add(folded + kind);
    const segments = folded.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      if (this.files.has(parent)) return 'file_directory_collision';
      this.dirs.add(parent);
    }
    if (isDirectory) {
      if (this.files.has(folded)) return 'file_directory_collision';
      this.dirs.add(folded);
    } else {
      if (this.dirs.has(folded)) return 'file_directory_collision';
      this.files.add(folded);
    }
    return null;
  }
}
