import type { Store } from '../store/store.js';

/** One sender to the organization at a time per gate, so nothing is sent twice at once: the drain, or an erasure sending its retraction. */
const sending = new WeakSet<Store>();

/** Runs `work` as the gate's one sender; `ran: false` when another is sending. */
export async function asTheDrain<T>(store: Store, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  if (sending.has(store)) return { ran: false };
  sending.add(store);
  try {
    return { ran: true, value: await work() };
  } finally {
    sending.delete(store);
  }
}
