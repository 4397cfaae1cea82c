import type { Clock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';
import { BearerAuth } from '../auth/bearer.js';
import type { PeopleFile } from '../auth/people-file.js';
import { PersonTokens } from '../credentials/person-tokens.js';
import { TrustedIssuers } from '../credentials/trusted-issuers.js';
import type { Deployment } from '../journal/deployment.js';
import type { Store } from '../store/store.js';

/**
 * Who a bearer credential names, for the HTTP surface: the gate's keys, an agent's
 * assertion, and a person's token from this gate's own issuer or one it trusts. Built by
 * the root (src/gate.ts) beside the rest of the auth part; it holds nothing to close.
 */
export function bearerAuth(
  config: GateConfig,
  { store, clock, deployment, people, issuer }: { store: Store; clock: Clock; deployment: Pick<Deployment, 'key' | 'deploymentId'>; people: PeopleFile; issuer: string | null },
): BearerAuth {
  const trusted = new TrustedIssuers(config.auth.trusted_issuers);
  const peopleAuth =
    issuer === null && trusted.size === 0
      ? null
      : {
          tokens: new PersonTokens(issuer === null ? null : { issuer, publicKey: deployment.key.publicKey }, trusted, config.auth.client_id, clock),
          localIssuer: issuer,
          peopleFile: people,
          admins: config.auth.admins,
        };
  return new BearerAuth(store, store.journal.viewChanges, clock, deployment.deploymentId, peopleAuth);
}
