/**
 * A metadata block that claims more than its own bytes hold (an EXIF tag whose values run
 * past the segment, more tags than any camera writes). Reading it as far as it claims is
 * how one small file used to cost gigabytes, so the upload is refused instead:
 * `reason: metadata_invalid`, the rule broken in `detail`.
 */
export class MetadataInvalid extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}
