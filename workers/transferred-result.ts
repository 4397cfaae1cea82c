/**
 * A worker's answer whose large byte arrays travel back to the main thread moved, not
 * copied: Piscina moves what a Transferable names and hands over its value.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';

class TransferredResult<T> {
  constructor(
    private readonly value: T,
    private readonly buffers: ArrayBuffer[],
  ) {}

  get [transferableSymbol](): ArrayBuffer[] {
    return this.buffers;
  }

  get [valueSymbol](): T {
    return this.value;
  }
}

/** `value` as the answer, with `buffers` (each owned by no one else) moved to the caller. */
export function transferred<T>(value: T, buffers: ArrayBuffer[]): T {
  return move(new TransferredResult(value, buffers) as never) as unknown as T;
}
