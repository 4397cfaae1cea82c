/** Bodies larger than this are read back from the content store when an index needs them. */
const BODY_MAX = 64 * 1024;
/**
 * What the held bodies may keep alive, counted by their backing memory (a small Buffer is a
 * view into an 8 KiB pool slab, which it keeps alive): at 1,000 claims a second about a
 * second of ingest, several times what the indexes' batches wait (25 ms to embed, 100 ms to write).
 */
const RETAINED_MAX = 8 * 1024 * 1024;

/**
 * The bytes of bodies an ingest just stored, by content hash, for the indexes derived after
 * the answer (vectors, `held_fts`): they would otherwise read back from the blob store the
 * bytes the ingest had in hand a few milliseconds before. Bytes named by a hash never change,
 * so a body kept here is exactly what the store holds under that hash while any live row names
 * it; whether a row may still be indexed is decided by reading the row (its state, its erasure)
 * as before, never by whether its bytes are here. A miss (a large body, a catch-up at start,
 * a re-scan, a promotion long after the ingest) reads the store. An erasure forgets the bytes
 * it removes, so erased words do not stay in memory either. Oldest first out.
 */
export class FreshBodies {
  private readonly bodies = new Map<string, Uint8Array>();
  private retained = 0;

  /** Inside the ingest's journal write, once its bytes are stored under `hash`. */
  offer(hash: string, bytes: Uint8Array): void {
    if (bytes.byteLength > BODY_MAX || this.bodies.has(hash)) return;
    this.bodies.set(hash, bytes);
    this.retained += retainedBy(bytes);
    for (const [oldest, kept] of this.bodies) {
      if (this.retained <= RETAINED_MAX) break;
      this.bodies.delete(oldest);
      this.retained -= retainedBy(kept);
    }
  }

  /** The bytes stored under `hash`, when still held here. */
  get(hash: string): Uint8Array | undefined {
    return this.bodies.get(hash);
  }

  /** An erasure took these bytes out of the gate. */
  forget(hash: string): void {
    const kept = this.bodies.get(hash);
    if (kept === undefined) return;
    this.bodies.delete(hash);
    this.retained -= retainedBy(kept);
  }
}

const retainedBy = (bytes: Uint8Array) => Math.max(bytes.byteLength, bytes.buffer.byteLength);
