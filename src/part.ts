/**
 * A part of the gate with a life: it holds something to release (a thread, a pool, a
 * connection, a timer, work under way) and releases it in close(). The root builds each
 * from its maker and closes them in the reverse of the order it built them
 * (src/part-list.ts, docs/architecture.md#parts-with-a-life).
 */
export interface Part {
  close(): Promise<void>;
}

/**
 * How one part is made: from the configuration and the parts it takes (built before it,
 * so closed after it). `name` is what a shutdown reports while the part closes.
 */
export interface PartMaker<Config, Deps, P extends Part> {
  readonly name: string;
  create(config: Config, deps: Deps): P;
}
