import { shownIdentity, type IdentityNames } from '../../../src/domain/shown-identity.js';

/**
 * One of the member's people as the organization's console shows them: by the email the
 * submission states for them (src/forms/submission-people.ts), the identity on hover; an
 * identity the submission states no email for (a key, the operator, a person the member has
 * no email of) as it is. The organization keeps no names of its own: its own deciders are
 * shown by identity.
 */
export function MemberPerson({ identity, names }: { identity: string | null | undefined; names: ReadonlyMap<string, IdentityNames> }) {
  if (identity === null || identity === undefined) return <span class="id">the deployment</span>;
  const shown = shownIdentity(identity, names.get(identity));
  return (
    <span class={shown === identity ? 'who id' : 'who person'} title={identity}>
      {shown}
    </span>
  );
}
