import { z } from 'zod';

/**
 * `project_map/v1` (docs/protocol.md#body-forms-and-versions, docs/protocol.md#gvingest_map): a producer's map of a
 * project, its files (members), the things in them (nodes) and how they connect (edges).
 * The spec names the fields and leaves their shapes open; these are this build's, in the
 * README's reference section. Edges are words inside the map's bytes, never relations.
 */
const hash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 lower-case hex>');
const word = z.string().min(1).max(64).regex(/^[a-z][a-z0-9_.-]*$/, 'a lower-case word');

export const MAP_MEMBER_CLASSES = ['source', 'document', 'asset'] as const;

export const projectMap = z.strictObject({
  map_version: z.literal('project_map/v1'),
  project: z.string().min(1).max(200),
  produced_by: z.strictObject({ name: z.string().min(1).max(200), version: z.string().min(1).max(100).optional() }),
  members: z
    .array(
      z.strictObject({
        path: z.string().min(1).max(1024),
        content_hash: hash,
        size_bytes: z.number().int().min(0),
        classification: z.enum(MAP_MEMBER_CLASSES),
      }),
    )
    .max(1000),
  nodes: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(256),
        kind: word,
        label: z.string().min(1).max(500).optional(),
        path: z.string().min(1).max(1024).optional(),
      }),
    )
    .max(10_000),
  edges: z.array(z.strictObject({ source: z.string().min(1).max(256), target: z.string().min(1).max(256), kind: word })).max(50_000),
  archive_hash: hash.optional(),
  archive_size: z.number().int().min(1).optional(),
});

export type ProjectMap = z.infer<typeof projectMap>;

/** Content types of a map's members (the closed list of docs/protocol.md#artifacts-kinds-and-trust-classes). */
export const MAP_CONTENT_TYPES: Record<(typeof MAP_MEMBER_CLASSES)[number], string> = {
  source: 'map_source',
  document: 'map_document',
  asset: 'map_asset',
};
