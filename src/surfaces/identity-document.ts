import type { House } from '../verbs/house.js';

/** GET /identity (docs/protocol.md#routes): public, no credential; `gates` is always empty. */
export function identityDocument(house: Pick<House, 'deployment' | 'config'>) {
  const issuer = house.config.auth.issuer;
  return {
    deployment_id: house.deployment.deploymentId,
    role: 'solo',
    auth: {
      issuer: issuer === '' ? null : issuer,
      issuer_url: issuer === '' ? null : issuer,
      client_id: house.config.auth.client_id,
      identity_extra: null,
      trusted_issuers: house.config.auth.trusted_issuers,
      admins: house.config.auth.admins,
    },
    gates: [],
  };
}
