import { withHiddenShown } from './hidden-characters.js';

/**
 * What a person reads for an identity (docs/console.md "People by name", docs/commands.md
 * `gate org review`): answers name everyone by identity, exact for programs and meaningless
 * to a reviewer. A signed-in person (`iss|sub`) is shown as "Name <email>", or the email, or
 * the name, as far as the gate holds them (gv.names, or a submission's `people`); an API key
 * (`key:<id>`) by its label, marked as a key so it is never read as a person; anything else
 * (the operator's socket account, the deployment, an identity nobody resolved) as it is. The
 * identity itself stays beside it, on hover or in a detail: every surface keeps it.
 */
export interface IdentityNames {
  email?: string | null;
  name?: string | null;
  /** A key's label, as gv.keys lists it. */
  label?: string | null;
}

/** A signed-in person's identity is `iss|sub`; an issuer never holds a bar (docs/governance.md). */
export const isPersonIdentity = (identity: string): boolean => identity.includes('|');
export const isKeyIdentity = (identity: string): boolean => identity.startsWith('key:');

const filled = (s: string | null | undefined): string | null => {
  const t = s?.trim();
  return t === undefined || t === '' ? null : withHiddenShown(t);
};

/** The words for `identity` given what is known of it; the identity itself when nothing is. Hidden characters are drawn, never passed on. */
export function shownIdentity(identity: string, known: IdentityNames | null | undefined): string {
  if (known === null || known === undefined) return identity;
  if (isKeyIdentity(identity)) {
    const label = filled(known.label);
    return label === null ? identity : `${label} (key)`;
  }
  if (!isPersonIdentity(identity)) return identity;
  const name = filled(known.name);
  const email = filled(known.email);
  if (name !== null && email !== null) return `${name} <${email}>`;
  return email ?? name ?? identity;
}

/** For a line of text with no hover: the words, then the identity in brackets; the identity alone when nothing more is known. */
export function shownWithIdentity(identity: string, known: IdentityNames | null | undefined): string {
  const shown = shownIdentity(identity, known);
  return shown === identity ? identity : `${shown} (${identity})`;
}
