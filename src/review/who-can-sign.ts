import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';
import type { GateConfig } from '../config/keys.js';

/**
 * The people who may sign a row: signed-in people at reviewer or above (the people table,
 * else `[auth].admins`), never its writer. Keys and socket peers do not sign (gv.sign is
 * for people), so they are not named.
 */
export function whoCanSign(house: { readonly store: Store; readonly config: GateConfig }, row: ArtifactRow): string[] {
  const assigned = house.store.people.all();
  const named = new Set(assigned.map((p) => `${p.iss}|${p.sub}`));
  const signers = assigned.filter((p) => p.role === 'reviewer' || p.role === 'admin').map((p) => `${p.iss}|${p.sub}`);
  for (const admin of house.config.auth.admins) if (!named.has(admin)) signers.push(admin);
  return signers.filter((identity) => identity !== row.writer_identity);
}
