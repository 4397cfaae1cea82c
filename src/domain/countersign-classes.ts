/**
 * The trust classes held until a second authority countersigns (docs/protocol.md#states): the
 * member gate's quorum and the organization gate's decisions read the same two.
 */
export const COUNTERSIGN_CLASSES: ReadonlySet<string> = new Set(['T-3', 'T-5']);
