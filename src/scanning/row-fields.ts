import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { FindingLocation, RowField, ScanField } from '../../workers/scan/finding-location.js';
import { isMaskedKind } from '../../workers/scan/finding.js';
import { maskSpans } from '../../workers/scan/mask.js';

/**
 * The free text a row is served with beside its body, as the scanner reads it: recall's
 * provenance, gv.node, gv.review and the inventories hand an agent the row's `source_uri`
 * (a URI, or a plain label kept as written: docs/governance.md), its work area and its
 * producer's name; a steering or question row also names whom it addresses. Each is scanned
 * as a text of its own, as written and as its words (workers/scan/scan-fields.ts; docs/scanner.md).
 */
export interface ServedFields {
  sourceUri: string;
  workarea: string | null;
  producerName: string | null;
  addressedNames: readonly string[];
}

export function scanFieldsOf(served: ServedFields): ScanField[] {
  const fields: ScanField[] = [{ location: { field: 'source_uri' }, text: served.sourceUri }];
  if (served.workarea !== null) fields.push({ location: { field: 'workarea' }, text: served.workarea });
  if (served.producerName !== null) fields.push({ location: { field: 'producer.name' }, text: served.producerName });
  // Names are one work-area segment each: read together, one a line, as a reader sees the list.
  if (served.addressedNames.length > 0) fields.push({ location: { field: 'addressed_to.names' }, text: served.addressedNames.join('\n') });
  return fields;
}

/** The same fields as the artifacts view holds them, for a row scanned again. */
export function scanFieldsOfRow(row: ArtifactRow): ScanField[] {
  const addressed = row.addressed_to === null ? {} : (JSON.parse(row.addressed_to) as { names?: string[] });
  return scanFieldsOf({ sourceUri: row.source_uri, workarea: row.workarea, producerName: row.producer_name, addressedNames: addressed.names ?? [] });
}

/**
 * A field's text with the spans of the findings in it masked as the masked body masks the
 * body's (an injection, a secret): what a grader model may read of it. As written when
 * nothing in it was found.
 */
export function maskedField(text: string, field: RowField, findings: ReadonlyArray<{ kind: string; start: number; end: number; location?: FindingLocation }>): string {
  return maskSpans(text, findings.filter((f) => f.location?.field === field && f.location.attachment === undefined && isMaskedKind(f.kind)));
}
