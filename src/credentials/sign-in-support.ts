import type * as JoseModule from 'jose';

export type Jose = typeof JoseModule;

/**
 * Sign-in support is the JWT library every token part runs on (jose): minting the sign-in
 * provider's tokens, and verifying people's tokens, trusted issuers' tokens and agents' own
 * assertions. It is detected when this module loads rather than imported outright, so an
 * install that left it out still starts: API keys and the socket work, token minting
 * answers 503 server_error (docs/protocol.md#the-sign-in-provider), and a JWT bearer is 401 unsupported.
 */
export const installedJose: Jose | null = await import('jose').catch((error: unknown) => {
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_MODULE_NOT_FOUND') return null;
  throw error;
});

export const SIGN_IN_SUPPORT_MISSING = 'this gate was installed without its sign-in support (the jose package): it mints and verifies no token';

export class SignInSupportMissing extends Error {
  constructor() {
    super(SIGN_IN_SUPPORT_MISSING);
  }
}

/** The JWT library; SignInSupportMissing when this install has none. */
export function jose(): Jose {
  if (installedJose === null) throw new SignInSupportMissing();
  return installedJose;
}
