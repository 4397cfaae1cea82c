/**
 * Where a finding is when it is not in the row's body. An agent reads more of a row than its
 * body: recall serves its source_uri, work area and producer beside it, and gv.attachment its
 * text attachments. Each of those is scanned as a text of its own, and a finding in one of them
 * is a finding of the row (it holds the row as one in the body does) that says where it is;
 * its offsets count in that text. A finding in the body has no location (docs/scanner.md).
 */

/** The fields of a row an agent is served beside its body, each scanned as a text of its own. */
export const ROW_FIELDS = ['source_uri', 'workarea', 'producer.name', 'addressed_to.names'] as const;
export type RowField = (typeof ROW_FIELDS)[number];

export interface FindingLocation {
  /** A field: of the row (ROW_FIELDS), or of the attachment named beside it (`source_uri`). */
  field?: RowField;
  /** An attachment, by its hash (`sha256:<hex>`): its text, or with `field` that field of it. */
  attachment?: string;
}

/** A text scanned beside a body, and where its findings are. */
export interface ScanField {
  location: FindingLocation;
  text: string;
}

/** Whether a finding lies in the body (it has no location): only those have offsets into the body's text. */
export const isInBody = (f: { readonly location?: FindingLocation }): boolean => f.location === undefined;

/** One string naming a location, '' for the body: what tells two findings at the same offsets apart. */
export const locationKey = (location: FindingLocation | undefined): string =>
  location === undefined ? '' : `${location.attachment ?? ''}|${location.field ?? ''}`;

/** Where a finding is, in words for a person (the console, the commands): `in source_uri`, `in attachment sha256:1a2b3c4d…`. */
export function whereFound(location: FindingLocation | undefined): string {
  if (location === undefined) return 'in the body';
  const attachment = location.attachment === undefined ? '' : `attachment ${location.attachment.slice(0, 15)}…`;
  if (location.field === undefined) return `in ${attachment}`;
  return attachment === '' ? `in ${location.field}` : `in the ${location.field} of ${attachment}`;
}
