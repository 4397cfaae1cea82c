import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { RelationReads } from '../projections/relation-reads.js';

export type HideVerdict = 'shown' | 'lowered' | 'hidden';

const ALL = 'all';

/**
 * What the hides standing on a row mean for one recall. A hide for everyone hides; a hide
 * for the reader's audience hides; a total hide made by anyone but a signed-in person was
 * journaled lowered, and lowers the row below every unhidden hit instead.
 */
export class HideFilter {
  private readonly any: boolean;

  constructor(
    private readonly relations: RelationReads,
    private readonly audience: string | undefined,
  ) {
    this.any = relations.anyHides();
  }

  verdict(id: string): HideVerdict {
    if (!this.any) return 'shown';
    let verdict: HideVerdict = 'shown';
    for (const hide of this.relations.hidesOf(id)) {
      if (hide.audience === ALL && hide.lowered === 1) verdict = 'lowered';
      else if (hide.audience === ALL || hide.audience === this.audience) return 'hidden';
    }
    return verdict;
  }
}

/**
 * Supersession as recall serves it. Without pins, ACTIVE rows are served and SUPERSEDED
 * ones only when asked for. A pin makes its row the chain's served head: the pinned row is
 * served even if SUPERSEDED, and the chain's other members are not (unless asked for).
 */
export class ChainFilter {
  private readonly any: boolean;

  constructor(
    private readonly relations: RelationReads,
    private readonly includeSuperseded: boolean,
  ) {
    this.any = relations.anyPins();
  }

  /** Whether the search must reach SUPERSEDED rows: asked for, or a pin may make one the head. */
  get searchSuperseded(): boolean {
    return this.includeSuperseded || this.any;
  }

  served(row: ArtifactRow): boolean {
    if (this.includeSuperseded) return true;
    if (!this.any) return row.state === 'ACTIVE';
    const pin = this.relations.pinIn(this.relations.chain(row.artifact_id));
    if (pin === undefined) return row.state === 'ACTIVE';
    return pin.artifact_id === row.artifact_id;
  }
}
