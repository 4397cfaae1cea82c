import { readFileSync } from 'node:fs';
import { GateClientError, OrgDoorClient } from '@gate/client';
import { invalidParams } from '../gate-error.js';
import type { GateConfig } from '../config/keys.js';

/**
 * The organization's key, read at each use so a join (or a rotated key file) holds from the
 * next drain: [org].api_key_file when set, else the variable [org].api_key_env names. A file
 * that cannot be read sends no key, and the door's 401 says so in the drain's outcome.
 */
function orgKey(org: GateConfig['org']): string {
  if (org.api_key_file !== '') {
    try {
      return readFileSync(org.api_key_file, 'utf8').trim();
    } catch {
      return '';
    }
  }
  return org.api_key_env === '' ? '' : (process.env[org.api_key_env] ?? '');
}

/** The configured organization gate's doors, as the config stands at this moment. */
export function orgDoorClient(house: { readonly config: GateConfig }): OrgDoorClient {
  const { url, allow_plain_http_loopback, timeout_ms } = house.config.org;
  try {
    return new OrgDoorClient({ baseUrl: url, bearer: orgKey(house.config.org), allowPlainHttpLoopback: allow_plain_http_loopback, deadlineMs: timeout_ms });
  } catch (error) {
    if (error instanceof GateClientError) throw invalidParams(`[org].url: ${error.message}`, { reason: 'no_endpoint' });
    throw error;
  }
}
