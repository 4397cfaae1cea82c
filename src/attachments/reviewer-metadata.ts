import type { PipelinePart } from '../../pipeline/pipeline-part.js';

export interface MetadataEntry {
  kind: string;
  text: string;
}

/** The bound of the metadata a reviewer is shown, as JSON (docs/protocol.md#gvattachment). */
export const METADATA_JSON_MAX = 65_536;

const jsonBytes = (entries: MetadataEntry[]) => Buffer.byteLength(JSON.stringify(entries), 'utf8');

/**
 * What an image's stripped metadata said, masked by the claim scanner (a secret or an
 * injection in an XMP description is masked like one in a claim), then cut to the bound:
 * the longest texts are shortened first, so every kind stays listed.
 */
export async function maskedMetadata(house: { readonly pipeline: PipelinePart }, entries: readonly MetadataEntry[]): Promise<MetadataEntry[]> {
  const masked = await Promise.all(
    entries.map(async (e) => {
      const bytes = Buffer.from(e.text, 'utf8');
      // Nothing masked: the text as the scanner read it (its UTF-8 form).
      return { kind: e.kind, text: (await house.pipeline.scan.scan(bytes, 'attachment_metadata')).masked ?? bytes.toString('utf8') };
    }),
  );
  while (jsonBytes(masked) > METADATA_JSON_MAX) {
    const longest = masked.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    if (longest.text.length < 32) {
      masked.pop();
      continue;
    }
    const keep = Math.floor(longest.text.length / 2);
    longest.text = `${longest.text.slice(0, keep)}…(cut)`;
  }
  return masked;
}
