export type CredentialKind = 'missing' | 'malformed' | 'expired' | 'issuer' | 'audience' | 'signature' | 'unavailable' | 'unsupported';

/** A credential refused on HTTP: 401 with the body of docs/protocol.md#credential-errors. */
export class CredentialError extends Error {
  constructor(
    readonly kind: CredentialKind,
    readonly why: string,
  ) {
    super(`${kind}: ${why}`);
  }

  body(): { error: string; kind: CredentialKind } {
    return { error: this.message, kind: this.kind };
  }
}
