import { GateClientError } from '../client/client-error.js';
import { OrgDoorClient } from '../client/org-door-client.js';
import { invalidParams } from '../gate-error.js';
import type { GateConfig } from '../config/keys.js';

/** The configured organization gate's doors; the key is read from the environment variable the config names. */
export function orgDoorClient(house: { readonly config: GateConfig }): OrgDoorClient {
  const { url, api_key_env, allow_plain_http_loopback, timeout_ms } = house.config.org;
  try {
    return new OrgDoorClient({
      baseUrl: url,
      bearer: api_key_env === '' ? '' : (process.env[api_key_env] ?? ''),
      allowPlainHttpLoopback: allow_plain_http_loopback,
      deadlineMs: timeout_ms,
    });
  } catch (error) {
    if (error instanceof GateClientError) throw invalidParams(`[org].url: ${error.message}`, { reason: 'no_endpoint' });
    throw error;
  }
}
