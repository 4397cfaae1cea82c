import type { Part, PartMaker } from './part.js';

/**
 * The root's parts in the order it built them (docs/architecture.md#parts-with-a-life).
 * A part takes only parts built before it, so closing in reverse closes each before
 * anything it uses: the pools before the writer they journal through, the threads before
 * the database. One list, so the close order is the build order and kept nowhere by hand.
 */
export class PartList {
  private readonly built: Array<{ name: string; part: Part }> = [];
  private closing: Promise<void> | null = null;
  private at: string | null = null;
  /** After a maker threw: the parts built before it, closing in reverse; null while none failed. */
  abandoned: Promise<void> | null = null;

  /**
   * @param closeFailed Told of a close that failed; the parts built before that one still
   *   close (a pool that fails to stop must not leave the database open).
   */
  constructor(private readonly closeFailed: (name: string, error: unknown) => void) {}

  /**
   * Builds a part and adds it to the list. When its maker throws, the parts already built
   * are closed in reverse (abandon(); `abandoned` resolves once they are) and the error goes on.
   */
  make<Config, Deps, P extends Part>(maker: PartMaker<Config, Deps, P>, config: Config, deps: Deps): P {
    if (this.closing !== null) throw new Error(`${maker.name} cannot be built: the parts are closing`);
    let part: P;
    try {
      part = maker.create(config, deps);
    } catch (error) {
      void this.abandon();
      throw error;
    }
    this.built.push({ name: maker.name, part });
    return part;
  }

  /**
   * The build failed (a maker, or the root between two makers, threw): the parts built so
   * far close in reverse. The same close as close(); `abandoned` holds it.
   */
  abandon(): Promise<void> {
    this.abandoned ??= this.close();
    return this.abandoned;
  }

  /** The names of the parts built, in the order they were (a close goes through them in reverse). */
  get names(): string[] {
    return this.built.map((b) => b.name);
  }

  /** The part closing now, 'closed' once every part is, null before close() is called. */
  get step(): string | null {
    return this.at;
  }

  /** Closes every part, the last built first, one awaited close at a time; called again, the same close. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const { name, part } of [...this.built].reverse()) {
        this.at = name;
        try {
          await part.close();
        } catch (error) {
          this.closeFailed(name, error);
        }
      }
      this.at = 'closed';
    })();
    return this.closing;
  }
}
