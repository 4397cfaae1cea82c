/**
 * The skill bundle's layout: exactly one SKILL.md, everything under its folder, and each
 * member's classification by where it sits in that folder (docs/protocol.md#skill-bundles).
 */
import { foldedName } from './member-path.js';
import type { ArchiveFailure } from './archive-failures.js';

export type Classification = 'skill' | 'script' | 'asset' | 'document';

const SKILL_FILE = 'skill.md';

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export interface SkillLayout {
  /** The folder holding SKILL.md, with a trailing slash; empty at the archive's root. */
  folder: string;
  classify(path: string): Classification;
}

/** The layout, or the rule it breaks. `directories` are stored without their trailing slash. */
export function skillLayout(files: readonly string[], directories: readonly string[]): SkillLayout | { problem: ArchiveFailure } {
  const skills = files.filter((p) => foldedName(baseName(p)) === SKILL_FILE);
  if (skills.length === 0) return { problem: 'skill_md_missing' };
  if (skills.length > 1) return { problem: 'skill_md_multiple' };
  const skillPath = skills[0]!;
  const folder = skillPath.slice(0, skillPath.length - baseName(skillPath).length);
  if (files.some((p) => !p.startsWith(folder))) return { problem: 'outside_skill_folder' };
  // A directory entry may be the skill folder, inside it, or one of its ancestors; nothing beside it.
  if (directories.some((d) => !`${d}/`.startsWith(folder) && !folder.startsWith(`${d}/`))) return { problem: 'outside_skill_folder' };
  return {
    folder,
    classify(path) {
      if (path === skillPath) return 'skill';
      const inside = path.slice(folder.length);
      if (inside.startsWith('scripts/')) return 'script';
      if (inside.startsWith('assets/')) return 'asset';
      return 'document';
    },
  };
}
