import { z } from 'zod';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { producerParam, spaceParam, workareaParam } from '../param-types.js';
import { TRUST_CLASS_REFUSED } from './ingest.js';
import { decodeBase64 } from './content-decoding.js';
import { admitWrite } from './write-admission.js';
import { appendRow, artifactIdOf, enteredState } from './append-row.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { BUNDLE_CONTENT_TYPES, bundleManifest, type BundleManifest } from '../../bundles/bundle-manifest.js';
import { archiveFinding, memberFindings, UNSCANNED_ARCHIVE } from '../../bundles/archive-findings.js';
import { producerOf, type ArtifactRow } from '../../projections/artifact-reads.js';
import type { Caller } from '../../access/caller.js';
import type { Finding, ScanResult } from '../../../workers/scan/finding.js';
import { withFindings } from '../../../workers/scan/joined-findings.js';
import { scanFieldsAlone } from '../../../pipeline/row-scan.js';
import { scanFieldsOf } from '../../scanning/row-fields.js';
import type { House } from '../house.js';

/** Bundles and project maps are proposed at T-5 (docs/protocol.md#artifacts-kinds-and-trust-classes). */
export const BUNDLE_TRUST_CLASS = 'T-5';
const INVALID = 'archive_invalid:';

const params = z.strictObject({
  workarea: workareaParam,
  content: z.string().min(1),
  source_uri: z.string().min(1).max(4096),
  manifest: z.record(z.string(), z.unknown()).optional(),
  space: spaceParam.optional(),
  producer: producerParam.optional(),
});

const memberId = (house: Pick<House, 'store' | 'deployment'>, caller: Caller, manifest: Pick<BundleManifest, 'archive_hash'>, path: string, contentHash: string, space: string) =>
  artifactIdOf(house, caller, contentHash, space, { archive_hash: manifest.archive_hash, path });

function scanEventOf(house: Pick<House, 'store'>, artifactId: string): string | null {
  return house.store.journalReads.firstScanEventId(artifactId);
}

/** A bundle already retained answers as it was retained, marked duplicate. */
function retainedAnswer(ctx: VerbContext<'store' | 'deployment'>, archive: ArtifactRow) {
  const { caller, store, deployment } = ctx;
  const common = { state: 'quarantined', archive_artifact_id: archive.artifact_id, workarea: archive.workarea, space: archive.space, producer: producerOf(archive), duplicate: true };
  if (archive.reason?.startsWith(INVALID)) {
    return { ...common, validation: 'failed', manifest_artifact_id: null, members: [], reason: archive.reason };
  }
  const manifestRow = store.artifacts.bundleManifestOf(archive.artifact_id);
  const text = store.artifacts.servedBody(manifestRow);
  // An erased manifest no longer says which members there were: the answer names none.
  if (text === null) return { ...common, validation: 'valid', manifest_artifact_id: manifestRow.artifact_id, members: [] };
  const manifest = JSON.parse(text) as BundleManifest;
  return {
    ...common,
    validation: 'valid',
    manifest_artifact_id: manifestRow.artifact_id,
    members: manifest.members.map((m) => {
      const id = memberId({ store, deployment }, caller, manifest, m.path, m.content_hash, archive.space);
      return { ...m, artifact_id: id, state: store.artifacts.byId(id)?.state ?? null, scan_event: scanEventOf({ store }, id) };
    }),
  };
}

const ingestBundleAnswer = z.union([
  z.object({
    validation: z.string(),
    manifest_artifact_id: z.null(),
    members: z.array(z.never()),
    reason: z.string(),
    state: z.string(),
    archive_artifact_id: z.string(),
    workarea: z.string().nullable(),
    space: z.string(),
    producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
    duplicate: z.boolean(),
  }),
  z.object({
    validation: z.string(),
    manifest_artifact_id: z.string(),
    members: z.array(z.object({
      artifact_id: z.string(),
      state: z.string().nullable(),
      scan_event: z.string().nullable(),
      path: z.string(),
      content_hash: z.string(),
      size_bytes: z.number().int(),
      classification: z.enum(['skill', 'script', 'asset', 'document']),
    })),
    state: z.string(),
    archive_artifact_id: z.string(),
    workarea: z.string().nullable(),
    space: z.string(),
    producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
    duplicate: z.boolean(),
  }),
  z.object({
    manifest_artifact_id: z.null(),
    members: z.array(z.never()),
    reason: z.string(),
    state: z.string(),
    validation: z.string(),
    archive_artifact_id: z.string(),
    workarea: z.string(),
    space: z.string(),
    producer: z.object({ name: z.string(), kind: z.enum(['agent', 'person', 'hook', 'tool']) }).nullable(),
  }),
  z.object({
    manifest_artifact_id: z.string(),
    members: z.array(z.object({
      path: z.string(),
      content_hash: z.string(),
      size_bytes: z.number().int(),
      classification: z.enum(['skill', 'script', 'asset', 'document']).nullable(),
      artifact_id: z.string(),
      state: z.string(),
      scan_event: z.string(),
    })),
    state: z.string(),
    validation: z.string(),
    archive_artifact_id: z.string(),
    workarea: z.string(),
    space: z.string(),
    producer: z.object({ name: z.string(), kind: z.enum(['agent', 'person', 'hook', 'tool']) }).nullable(),
  }),
]);

export const ingestBundleVerb = defineVerb({
  name: 'gv.ingest_bundle',
  role: 'agent',
  summary:
    'Propose a skill bundle (base64 ZIP): inspected without extracting or executing; the archive, its canonical manifest and each scanned member are held in quarantine at T-5.',
  params,
  refused: TRUST_CLASS_REFUSED,
  door: { sources: (p) => [{ field: 'source_uri', uri: p.source_uri }] },
  answer: ingestBundleAnswer,
  uses: ['store', 'access', 'pipeline', 'deployment', 'config'],
  async handler(ctx, p) {
    const { caller, store, access, pipeline, deployment, config } = ctx;
    const admission = admitWrite({ store, access, config }, caller, { space: p.space ?? 'main', workarea: p.workarea });
    const space = admission.space;
    admission.contributes();
    const archive = decodeBase64(p.content, 'content');
    const archiveHash = `sha256:${sha256Hex(archive)}`;
    const archiveId = artifactIdOf({ store, deployment }, caller, archiveHash, space);
    const earlier = store.artifacts.byId(archiveId);
    if (earlier) return retainedAnswer(ctx, earlier);

    const inspection = await pipeline.bundles.inspect(archive, true);
    let failure = inspection.valid ? null : inspection.detail;
    const manifest = inspection.valid ? bundleManifest(inspection, inspection.members) : null;
    // A manifest the caller sent is recomputed in full: any difference fails the archive.
    if (manifest !== null && p.manifest !== undefined && canonicalJson(p.manifest) !== canonicalJson(manifest)) failure = 'manifest_mismatch';
    const members = failure === null && inspection.valid ? inspection.members : [];
    admission.room(1 + members.length);
    const manifestBytes = manifest === null ? null : Buffer.from(canonicalJson(manifest), 'utf8');
    const fields = scanFieldsOf({ sourceUri: p.source_uri, workarea: p.workarea, producerName: p.producer?.name ?? null, addressedNames: [] });
    const [fieldFindings, manifestScan, ...memberScans] = await Promise.all([
      scanFieldsAlone(pipeline, 'skill_archive', fields),
      ...(failure === null && manifestBytes !== null
        ? [pipeline.scan.scan(manifestBytes, 'bundle_manifest'), ...members.map((m) => pipeline.scan.scan(m.bytes, BUNDLE_CONTENT_TYPES[m.classification!]))]
        : []),
    ]) as [Finding[], ...ScanResult[]];
    // The archive, its manifest and every member are served with the same fields: each carries what was found in them.
    const withFields = (scan: ScanResult) => withFindings(scan, fieldFindings);

    return store.writer.write(() => {
      admission.stillOpen();
      const twin = store.artifacts.byId(archiveId);
      if (twin) return retainedAnswer(ctx, twin);
      const producer = p.producer ? { producer: p.producer } : {};
      const common = { space, workarea: p.workarea, kind: null, trustClass: BUNDLE_TRUST_CLASS, sourceUri: p.source_uri };
      appendRow({ store, pipeline }, caller, {
        ...common,
        artifactId: archiveId,
        bytes: archive,
        contentType: 'skill_archive',
        derivesFrom: [],
        ingest: { ...producer, bundle: { validation: failure === null ? 'valid' : 'failed' } },
        recorded: false,
        scan: withFields(UNSCANNED_ARCHIVE),
        gateFindings:
          failure !== null
            ? [archiveFinding(`${INVALID}${failure}`)]
            : memberFindings(members.map((m, i) => ({ path: m.path, flagged: memberScans[i]!.flagged }))),
        ...(failure === null ? {} : { reason: `${INVALID}${failure}` }),
      });
      const answer = {
        state: 'quarantined',
        validation: failure === null ? 'valid' : 'failed',
        archive_artifact_id: archiveId,
        workarea: p.workarea,
        space,
        producer: p.producer ?? null,
      };
      if (failure !== null || manifest === null || manifestBytes === null) {
        return { ...answer, manifest_artifact_id: null, members: [], reason: `${INVALID}${failure}` };
      }
      const manifestId = artifactIdOf({ store, deployment }, caller, `sha256:${sha256Hex(manifestBytes)}`, space, { archive_hash: archiveHash });
      // The manifest is evidence of what the archive holds: recorded, never graded.
      appendRow({ store, pipeline }, caller, {
        ...common,
        artifactId: manifestId,
        bytes: manifestBytes,
        contentType: 'bundle_manifest',
        derivesFrom: [archiveId],
        ingest: producer,
        recorded: true,
        scan: withFields(manifestScan!),
      });
      const served = members.map((m, i) => {
        const id = memberId({ store, deployment }, caller, manifest, m.path, m.content_hash, space);
        const event = appendRow({ store, pipeline }, caller, {
          ...common,
          artifactId: id,
          bytes: m.bytes,
          contentType: BUNDLE_CONTENT_TYPES[m.classification!],
          derivesFrom: [archiveId],
          ingest: { ...producer, bundle_path: m.path },
          recorded: false,
          scan: withFields(memberScans[i]!),
        });
        return {
          path: m.path,
          content_hash: m.content_hash,
          size_bytes: m.size_bytes,
          classification: m.classification,
          artifact_id: id,
          state: enteredState(event),
          scan_event: event.event_id,
        };
      });
      served.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { ...answer, manifest_artifact_id: manifestId, members: served };
    });
  },
});
