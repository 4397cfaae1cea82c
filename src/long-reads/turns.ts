import { FairQueue } from './fair-queue.js';

/**
 * Whose chunk runs next. A long read asks for a turn before each chunk; one turn is given
 * per pass of the event loop (setImmediate), so between two chunks of any long reads the
 * loop reads sockets and answers everyone else, and the turns go round the identities
 * waiting, one each, however many reads an identity has waiting.
 */
export class Turns {
  private readonly waiting = new FairQueue<() => void>();
  private scheduled = false;

  /** Resolves when this identity's next chunk may run. */
  take(identity: string): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(identity, resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.size === 0) return;
    this.scheduled = true;
    // A turn given inside this callback runs in its microtasks; the next is given on the
    // loop's next pass, after its poll phase has read what arrived meanwhile.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      this.schedule();
    });
  }
}
