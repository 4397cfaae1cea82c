import { z } from 'zod';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { artifactIdParam, producerParam, spaceParam, workareaParam } from '../param-types.js';
import { TRUST_CLASS_REFUSED } from './ingest.js';
import { decodeBase64 } from './content-decoding.js';
import { admitWrite } from './write-admission.js';
import { appendRow, artifactIdOf, enteredState } from './append-row.js';
import { BUNDLE_TRUST_CLASS } from './ingest-bundle.js';
import { invalidParams } from '../../gate-error.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { MAP_CONTENT_TYPES, type ProjectMap } from '../../domain/project-map.js';
import { checkMapStructure } from '../../bundles/map-structure.js';
import { eventFromRow } from '../../forms/event.js';
import { producerOf, type ArtifactRow } from '../../projections/artifact-reads.js';
import type { BundleMember } from '../../../pipeline/bundle-stage.js';
import { isInBody } from '../../../workers/scan/finding-location.js';
import { withFindings } from '../../../workers/scan/joined-findings.js';
import { scanFieldsOf } from '../../scanning/row-fields.js';

const params = z.strictObject({
  workarea: workareaParam,
  manifest: z.record(z.string(), z.unknown()),
  source_uri: z.string().min(1).max(4096),
  content: z.string().min(1).optional(),
  encoding: z.literal('base64').optional(),
  space: spaceParam.optional(),
  producer: producerParam.optional(),
  derives_from: z.array(artifactIdParam).max(64).optional(),
});
type Params = z.output<typeof params>;

const byPath = <T extends { path: string }>(a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const memberKey = (m: { path: string; content_hash: string; size_bytes: number }) => `${m.path}\n${m.content_hash}\n${m.size_bytes}`;

type MapMember = BundleMember & { declared: ProjectMap['members'][number]['classification'] };
type Check = { validation: 'valid' | 'structural'; map: ProjectMap; members: MapMember[] } | { reason: string };

/**
 * The whole check: the manifest's structure, then, when the archive travelled, the
 * archive's inspection and a full recomputation of every member the manifest declares.
 * Anything failing refuses the whole map.
 */
async function checkMap(ctx: Pick<VerbContext, 'pipeline'>, p: Params): Promise<Check> {
  const { pipeline } = ctx;
  const structure = checkMapStructure(p.manifest, pipeline.bundles.limits);
  if ('detail' in structure) return { reason: `map_invalid:${structure.detail}` };
  const map = structure.map;
  if (p.content === undefined) return { validation: 'structural', map, members: [] };
  if (map.archive_hash === undefined) return { reason: 'map_invalid:archive_fields_missing' };
  const inspection = await pipeline.bundles.inspect(decodeBase64(p.content, 'content'), false);
  if (!inspection.valid) return { reason: `archive_invalid:${inspection.detail}` };
  if (inspection.archive_hash !== map.archive_hash || inspection.archive_size !== map.archive_size) return { reason: 'map_invalid:archive_mismatch' };
  const declared = map.members.map(memberKey).sort();
  const found = inspection.members.map(memberKey).sort();
  if (declared.length !== found.length || declared.some((k, i) => k !== found[i])) return { reason: 'map_invalid:members_mismatch' };
  const classes = new Map(map.members.map((m) => [m.path, m.classification]));
  return {
    validation: 'valid',
    map,
    members: inspection.members.map((m) => ({ ...m, declared: classes.get(m.path)! })).sort(byPath),
  };
}

function mapAnswer(map: ProjectMap, row: { validation: string; space: string; workarea: string | null; producer: unknown }) {
  return {
    state: 'quarantined',
    validation: row.validation,
    space: row.space,
    workarea: row.workarea,
    producer: row.producer,
    project: map.project,
    produced_by: map.produced_by,
    nodes: map.nodes.length,
    edges: map.edges.length,
  };
}

/** A map already admitted (by this writer here, or promoted here) answers as it stands, marked duplicate. */
function duplicateAnswer(ctx: VerbContext<'store' | 'deployment'>, row: ArtifactRow) {
  const { caller, store, deployment } = ctx;
  const ingest = store.journalReads.firstIngestOf(row.artifact_id)!;
  const validation = ((eventFromRow(ingest).data['map'] ?? {}) as { validation?: string }).validation ?? 'structural';
  const map = JSON.parse(store.artifacts.body(row.content_hash)!) as ProjectMap;
  return {
    ...mapAnswer(map, { validation, space: row.space, workarea: row.workarea, producer: producerOf(row) }),
    map_artifact_id: row.artifact_id,
    artifact_state: row.state,
    members: map.members.map((m) => {
      const id = validation === 'valid' ? artifactIdOf({ store, deployment }, caller, m.content_hash, row.space, { map_hash: row.content_hash, path: m.path }) : null;
      const member = id === null ? undefined : store.artifacts.byId(id);
      return { ...m, artifact_id: member ? id : null, state: member?.state ?? null };
    }),
    duplicate: true,
  };
}

const ingestMapAnswer = z.union([
  z.object({
    map_artifact_id: z.string(),
    artifact_state: z.string(),
    members: z.array(z.object({
      artifact_id: z.string().nullable(),
      state: z.string().nullable(),
      path: z.string(),
      content_hash: z.string(),
      size_bytes: z.number().int(),
      classification: z.enum(['source', 'asset', 'document']),
    })),
    duplicate: z.boolean(),
    state: z.string(),
    validation: z.string(),
    space: z.string(),
    workarea: z.string().nullable(),
    producer: z.unknown(),
    project: z.string(),
    produced_by: z.object({ name: z.string(), version: z.string().optional() }),
    nodes: z.number().int(),
    edges: z.number().int(),
  }),
  z.object({
    members: z.array(z.never()),
    duplicate: z.boolean(),
    reason: z.string(),
    space: z.string(),
    workarea: z.string(),
    producer: z.object({ name: z.string(), kind: z.enum(['agent', 'person', 'hook', 'tool']) }).nullable(),
    state: z.string(),
    validation: z.string(),
    map_artifact_id: z.null(),
    artifact_state: z.null(),
  }),
]);

export const ingestMapVerb = defineVerb({
  name: 'gv.ingest_map',
  role: 'agent',
  summary:
    'Propose a project_map/v1 manifest (and optionally the ZIP its members came from): checked whole and admitted as one gated artifact at T-5; its edges never enter the relation graph.',
  params,
  refused: TRUST_CLASS_REFUSED,
  door: { sources: (p) => [{ field: 'source_uri', uri: p.source_uri }] },
  answer: ingestMapAnswer,
  uses: ['store', 'access', 'pipeline', 'deployment', 'config'],
  async handler(ctx, p) {
    const { caller, store, access, pipeline, deployment, config } = ctx;
    const admission = admitWrite({ store, access, config }, caller, { space: p.space ?? 'main', workarea: p.workarea });
    const space = admission.space;
    if (p.content !== undefined && p.encoding === undefined) throw invalidParams('content needs encoding: "base64"', { field: 'encoding' });
    if (p.content === undefined && p.encoding !== undefined) throw invalidParams('encoding goes with content', { field: 'encoding' });
    admission.contributes();
    const parents = p.derives_from ?? [];
    if (new Set(parents).size !== parents.length) throw invalidParams('derives_from repeats an id', { field: 'derives_from' });
    for (const id of parents) access.readableArtifact(caller, id);

    const check = await checkMap(ctx, p);
    const common = { space, workarea: p.workarea, producer: p.producer ?? null };
    if ('reason' in check) {
      // A manifest failing the whole check admits nothing and retains nothing.
      return { state: 'refused', validation: 'failed', map_artifact_id: null, artifact_state: null, ...common, members: [], duplicate: false, reason: check.reason };
    }
    const mapBytes = Buffer.from(canonicalJson(check.map), 'utf8');
    const mapHash = `sha256:${sha256Hex(mapBytes)}`;
    // A map whose row was erased meanwhile is written again under a new id (artifactIdOf), so the id is read again inside the write.
    let mapId = artifactIdOf({ store, deployment }, caller, mapHash, space);
    const earlier = () => store.artifacts.byId(mapId) ?? store.artifacts.promotedCopy(mapHash, space);
    const first = earlier();
    if (first) return duplicateAnswer(ctx, first);
    admission.room(1 + check.members.length);
    // The map and every member are served with the same fields: scanned once, each row carries what was found in them.
    const fields = scanFieldsOf({ sourceUri: p.source_uri, workarea: p.workarea, producerName: p.producer?.name ?? null, addressedNames: [] });
    const [mapScan, ...memberScans] = await Promise.all([
      pipeline.scan.scan(mapBytes, 'project_map', null, fields),
      ...check.members.map((m) => pipeline.scan.scan(m.bytes, MAP_CONTENT_TYPES[m.declared])),
    ]);
    const fieldFindings = mapScan!.findings.filter((f) => !isInBody(f));

    return store.writer.write(() => {
      admission.stillOpen();
      mapId = artifactIdOf({ store, deployment }, caller, mapHash, space);
      const twin = earlier();
      if (twin) return duplicateAnswer(ctx, twin);
      const producer = p.producer ? { producer: p.producer } : {};
      const row = { space, workarea: p.workarea, kind: null, trustClass: BUNDLE_TRUST_CLASS, sourceUri: p.source_uri, recorded: false };
      // The map is one gated artifact; its nodes and edges stay inside these bytes.
      const mapEvent = appendRow({ store, pipeline }, caller, {
        ...row,
        artifactId: mapId,
        bytes: mapBytes,
        contentType: 'project_map',
        derivesFrom: parents,
        ingest: { ...producer, map: { validation: check.validation } },
        scan: mapScan!,
      });
      const retained = new Map(
        check.members.map((m, i) => {
          const id = artifactIdOf({ store, deployment }, caller, m.content_hash, space, { map_hash: mapHash, path: m.path });
          const event = appendRow({ store, pipeline }, caller, {
            ...row,
            artifactId: id,
            bytes: m.bytes,
            contentType: MAP_CONTENT_TYPES[m.declared],
            derivesFrom: [mapId],
            ingest: { ...producer, map_path: m.path },
            scan: withFindings(memberScans[i]!, fieldFindings),
          });
          return [m.path, { artifact_id: id, state: enteredState(event) }] as const;
        }),
      );
      return {
        ...mapAnswer(check.map, { validation: check.validation, ...common }),
        map_artifact_id: mapId,
        artifact_state: enteredState(mapEvent),
        members: [...check.map.members].sort(byPath).map((m) => ({ ...m, ...(retained.get(m.path) ?? { artifact_id: null, state: null }) })),
        duplicate: false,
      };
    });
  },
});
