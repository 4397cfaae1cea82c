import { CAPABILITIES, type Capability } from '../access/capabilities.js';
import type { Store } from '../store/store.js';

const held = (house: { readonly store: Store }, principal: string, space: string): Capability[] => {
  const row = house.store.grants.capabilities(principal, space);
  return row === undefined ? [] : (row.capabilities.split(',') as Capability[]);
};

/**
 * Inside the writer's transaction: gives or takes capabilities the way gv.grant journals
 * them (`space-grant-issued` / `space-grant-revoked` carrying what is held after), so the
 * grants a crew's runner and members hold are ordinary grants, listed by gv.grants.
 */
export function changeGrant(house: { readonly store: Store }, by: string, action: 'issue' | 'revoke', principal: string, space: string, capabilities: Capability[]): void {
  const before = held(house, principal, space);
  const after = CAPABILITIES.filter((c) => (action === 'issue' ? before.includes(c) || capabilities.includes(c) : before.includes(c) && !capabilities.includes(c)));
  if (after.join(',') === CAPABILITIES.filter((c) => before.includes(c)).join(',')) return;
  house.store.journal.append(action === 'issue' ? 'space-grant-issued' : 'space-grant-revoked', by, {
    principal,
    space,
    capabilities: after,
    [action === 'issue' ? 'added' : 'removed']: capabilities,
  });
}

/**
 * Ends a crew member's key: revoked with `reason` (reassigned, superseded, refused), and
 * its grants taken back so gv.grants lists no dead member.
 */
export function revokeMemberKey(house: { readonly store: Store }, by: string, keyId: string, reason: string): void {
  house.store.journal.append('apikey-revoked', by, { key_id: keyId, reason });
  const principal = `key:${keyId}`;
  const spaces = house.store.grants.grantsOf(principal);
  for (const g of spaces) changeGrant(house, by, 'revoke', principal, g.space, g.capabilities.split(',') as Capability[]);
}
