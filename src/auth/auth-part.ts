import type { OperatorProofs } from './operator-proofs.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PeopleFile } from './people-file.js';
import type { SigninSessions } from './signin-sessions.js';
import type { BearerAuth } from './bearer.js';
import type { SignInProvider } from './sign-in-provider.js';

/** The auth part: the callers' credentials, this gate's own sign-in provider and the operator's proofs. */
export interface AuthPart {
  /** Who may sign in at this gate's own issuer (password hashes; never in the journal). */
  readonly people: PeopleFile;
  /** Refresh-token families of the sign-in provider, journaled. */
  readonly signinSessions: SigninSessions;
  /** gv.challenge nonces and the operator keys that sign them. */
  readonly operatorProofs: OperatorProofs;
  /** This gate's own sign-in issuer, or null when it is not a sign-in provider. */
  readonly issuer: string | null;
  /** Wrong current passwords given to gv.password_change, counted per person as sign-in counts wrong passwords. */
  readonly passwordChecks: LoginThrottle;
  /** Who a bearer credential names (keys, a person's token, an agent's assertion): the HTTP surface asks it of each request. */
  readonly bearer: BearerAuth;
  /** This gate's own sign-in provider (its routes, its tokens), or null when `auth.issuer` is empty. */
  readonly signIn: SignInProvider | null;
}
