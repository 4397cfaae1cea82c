interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers what concurrent requests ask of the database into one round trip: the first
 * request of an idle batcher goes on the next turn of the event loop (with whatever else
 * arrived in that turn); while a batch is out, later ones wait and go together as soon as
 * it is back. Under load each round trip (and, for a write, each commit) carries many
 * requests; alone, a request waits one turn. `run` answers one output per input, in order;
 * if it throws, every request of that batch is refused with the error.
 */
export class RoundTripBatch<I, O> {
  private queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch: number,
    private readonly maxInFlight = 1,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight += 1;
      this.run(batch.map((w) => w.item))
        .then(
          (outputs) => batch.forEach((w, i) => w.resolve(outputs[i]!)),
          (error: unknown) => batch.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.flush();
        });
    }
  }
}
