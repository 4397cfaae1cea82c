import { GateClient, type GateClientOptions } from './gate-client.js';

export type ReviewerClientOptions = DistributiveOmit<GateClientOptions, 'scope'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A client that decides: curation's verbs and the deciding ones (gv.promote, gv.reject,
 * gv.sign... DECIDING_VERBS), which no scope of GateClient sends (docs/protocol.md#client-transport-rules, rule 3). For a
 * reviewer program and a person's own tool (`gate sign`); the gate still refuses a decision
 * by role to a key or person that may not make it.
 */
export class ReviewerClient extends GateClient {
  constructor(options: ReviewerClientOptions) {
    super({ ...options, scope: 'curation' } as GateClientOptions);
  }

  protected override decides(): boolean {
    return true;
  }
}
