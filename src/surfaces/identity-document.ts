import type { Gate } from '../gate.js';

/** GET /identity (spec 1): public, no credential; `gates` is always empty. */
export function identityDocument(gate: Gate) {
  const issuer = gate.config.auth.issuer;
  return {
    deployment_id: gate.deployment.deploymentId,
    role: 'solo',
    auth: {
      issuer: issuer === '' ? null : issuer,
      issuer_url: issuer === '' ? null : issuer,
      client_id: gate.config.auth.client_id,
      identity_extra: null,
      trusted_issuers: gate.config.auth.trusted_issuers,
      admins: gate.config.auth.admins,
    },
    gates: [],
  };
}
