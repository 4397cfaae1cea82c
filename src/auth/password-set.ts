import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { AuthPart } from './auth-part.js';
import { hashPassword } from './password-hash.js';

/** The journal event of every password change: who, and how (never the password nor its hash). */
export const PASSWORD_SET = 'person-password-set';

/** How long a reset link (`gate people reset --link`) stays usable. */
export const RESET_LINK_MS = 24 * 60 * 60 * 1000;

/** How a password came to be set: by the person (changed), by an admin (reset), or through a reset link (link). */
export type PasswordSetHow = 'changed' | 'reset' | 'link';

type Parts = { readonly store: Store; readonly auth: AuthPart; readonly clock: Clock };

/** The operator key that signed an admin's act, when operator proofs are on (as other operator-signed events carry it). */
const operatorKeyOf = (key: string | undefined) => (key === undefined ? {} : { operator_key: key });

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A new password for a person who signs in here, keeping who they are: their subject, so their
 * identity, role, grants and past signatures are theirs still. Journaled (person-password-set)
 * with their other sign-in sessions ended in the same write: all of them after a reset (the
 * old password may be known to someone else), all but the one changing it after a change of
 * their own. Their access tokens already given out run to their end (an hour at most); no
 * refresh is granted after. The journal is written before the people file, so no password is
 * set that the journal does not tell of.
 */
export async function setPassword(
  house: Parts,
  who: { iss: string; sub: string },
  password: string,
  how: PasswordSetHow,
  by: string,
  also: { keepSession?: string; operatorKey?: string } = {},
): Promise<string> {
  const hash = await hashPassword(password);
  const event = await house.store.writer.write(() => {
    const e = house.store.journal.append(PASSWORD_SET, by, { iss: who.iss, sub: who.sub, how, ...operatorKeyOf(also.operatorKey) });
    house.auth.signinSessions.endAllOf(who.iss, who.sub, how === 'changed' ? 'password_changed' : 'password_reset', how === 'changed' ? also.keepSession : undefined);
    return e;
  });
  house.auth.people.setPassword(who.iss, who.sub, hash, house.clock.now());
  return event.event_id;
}

/**
 * A one-time link for a person to set their own password: 32 random bytes, of which the people
 * file keeps only the sha256, usable once within RESET_LINK_MS. Issuing it journals the act
 * (how `link_issued`) and changes nothing else: the old password works until the link is used.
 */
export async function issueResetLink(house: Parts, who: { iss: string; sub: string }, by: string, operatorKey?: string): Promise<{ token: string; expiresAt: number; eventId: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = house.clock.now() + RESET_LINK_MS;
  const event = await house.store.writer.write(() =>
    house.store.journal.append(PASSWORD_SET, by, { iss: who.iss, sub: who.sub, how: 'link_issued', expires_at: expiresAt, ...operatorKeyOf(operatorKey) }),
  );
  house.auth.people.setReset(who.iss, who.sub, sha256Hex(token), expiresAt);
  return { token, expiresAt, eventId: event.event_id };
}

/** The person a reset link's token names while it is unused and unexpired, else undefined. */
export function personOfResetToken(house: Parts, token: string) {
  if (house.auth.issuer === null || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return house.auth.people.byResetToken(sha256Hex(token), house.clock.now());
}
