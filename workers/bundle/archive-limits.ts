/** The bounds an archive is inspected within; each crossing is its own `archive_invalid:<detail>`. */
export interface ArchiveLimits {
  archiveMaxBytes: number;
  entriesMax: number;
  memberMaxBytes: number;
  expandedMaxBytes: number;
  ratioMax: number;
  pathMaxBytes: number;
  pathMaxSegments: number;
}

/** The protocol's defaults (docs/protocol.md#skill-bundles); the gate reads its own from [bundle]. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  archiveMaxBytes: 1_000_000,
  entriesMax: 1000,
  memberMaxBytes: 2_000_000,
  expandedMaxBytes: 20_000_000,
  ratioMax: 100,
  pathMaxBytes: 1024,
  pathMaxSegments: 32,
};
