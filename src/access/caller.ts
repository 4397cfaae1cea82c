import type { Role } from '../domain/roles.js';

/** Who is calling, derived by a surface from the connection, never from params. */
export interface Caller {
  identity: string;
  role: Role;
  /** writer_kind of what this caller writes: person (signed in), program (API key), local (socket peer). */
  kind: 'person' | 'program' | 'local';
  /**
   * A key with scope `events` may read only gv.events (docs/protocol.md#credentials-and-roles); one with
   * scope `metrics` only GET /metrics and gv.ping (docs/spec-choices.md).
   */
  scope: 'events' | 'metrics' | null;
  demo: boolean;
  surface: 'socket' | 'http' | 'mcp';
  /**
   * Set when an API key's caller came as its holder's short-lived assertion rather than the
   * key itself: what only the long-lived credential may do (bind or replace the assertion
   * key) refuses it, or five minutes of one assertion would buy a credential that never expires.
   */
  byAssertion?: true;
  /** The peer's uid, for socket callers: grants to `uid:<n>` cover every process of that user. */
  uid?: number;
  /** A person's sign-in session (the token's `sid`), for what acts on their other sessions (a new password ends those). */
  session?: string;
}
