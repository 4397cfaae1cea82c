/**
 * A pool task's texts in one buffer, moved to the worker (a transfer list entry), with where
 * each ends: one allocation and one transfer a task instead of one of each per text, and
 * nothing of the caller's memory shared with the worker.
 */
export interface PackedTexts {
  bytes: ArrayBuffer;
  /** The end offset of each text in `bytes`; text i starts where text i - 1 ends. */
  ends: number[];
}

export function packTexts(texts: readonly Uint8Array[]): PackedTexts {
  let size = 0;
  for (const t of texts) size += t.byteLength;
  const bytes = new Uint8Array(size);
  const ends: number[] = [];
  let at = 0;
  for (const t of texts) {
    bytes.set(t, at);
    at += t.byteLength;
    ends.push(at);
  }
  return { bytes: bytes.buffer, ends };
}

/** Views of each text, in order. */
export function unpackTexts(packed: PackedTexts): Uint8Array[] {
  const views: Uint8Array[] = [];
  let start = 0;
  for (const end of packed.ends) {
    views.push(new Uint8Array(packed.bytes, start, end - start));
    start = end;
  }
  return views;
}
