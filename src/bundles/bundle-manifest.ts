import type { Classification } from '../../workers/bundle/skill-layout.js';

export interface BundleManifest {
  bundle_version: 1;
  archive_hash: string;
  archive_size: number;
  members: Array<{ path: string; content_hash: string; size_bytes: number; classification: Classification }>;
}

/** The canonical manifest of an inspected skill bundle: members sorted by path (docs/protocol.md#skill-bundles). */
export function bundleManifest(
  archive: { archive_hash: string; archive_size: number },
  members: ReadonlyArray<{ path: string; content_hash: string; size_bytes: number; classification: Classification | null }>,
): BundleManifest {
  return {
    bundle_version: 1,
    archive_hash: archive.archive_hash,
    archive_size: archive.archive_size,
    members: [...members]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((m) => ({ path: m.path, content_hash: m.content_hash, size_bytes: m.size_bytes, classification: m.classification! })),
  };
}

/** Each member class enters as its own content type (the closed list of docs/protocol.md#artifacts-kinds-and-trust-classes). */
export const BUNDLE_CONTENT_TYPES: Record<Classification, string> = {
  skill: 'bundle_skill',
  script: 'bundle_python',
  asset: 'bundle_asset',
  document: 'bundle_document',
};
