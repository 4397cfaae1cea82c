import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams, notAPerson } from '../../gate-error.js';
import { EMAIL_SHAPE, normalEmail } from '../../auth/people-file.js';
import { verifyPassword } from '../../auth/password-hash.js';
import { issueResetLink, setPassword } from '../../auth/password-set.js';
import { proofParam, requireOperatorProof } from '../operator-proof.js';
import { publicUrl } from '../../config/public-url.js';
import { eventIdAnswer } from '../answer-types.js';

/** The person's password was changed: who, and the event that journals it (person-password-set). */
const passwordChangeAnswer = z.object({ identity: z.string(), changed: z.literal(true), event_id: eventIdAnswer });

/** A reset: a new password set, or a one-time link (shown once, here) the person opens to set their own. */
const personResetAnswer = z.union([
  z.object({ email: z.string(), identity: z.string(), reset: z.literal('password'), event_id: eventIdAnswer }),
  z.object({
    email: z.string(),
    identity: z.string(),
    reset: z.literal('link'),
    link: z.string().describe('the one-time address to hand the person: shown once, here, never again'),
    expires_at: z.number().int().describe('when the link stops working (ms)'),
    event_id: eventIdAnswer,
  }),
]);

const newPassword = z.string().min(8, 'a password has at least 8 characters').max(1024);

/**
 * A person's own password change (the console's Password screen): the current password, then
 * the new one. Only for a person who signs in at this gate with a password; their identity,
 * role, grants and past signatures stay theirs (the subject does not change). Wrong current
 * passwords are counted per person like wrong sign-ins (auth.login_*), so a stolen hour-long
 * token cannot try passwords at will.
 */
export const passwordChangeVerb = defineVerb({
  name: 'gv.password_change',
  role: 'reader',
  summary: "Change your own password (a person who signs in here): the current one and the new one; your other sign-in sessions end; journaled.",
  params: z.strictObject({ current: z.string().min(1).max(1024), password: newPassword }),
  answer: passwordChangeAnswer,
  uses: ['store', 'auth', 'clock'],
  async handler({ caller, store, auth, clock }, p) {
    if (caller.kind !== 'person') throw notAPerson('gv.password_change');
    // A person of this gate's own issuer: in people.json under the identity they were added with (the issuer's URL may have moved since).
    const person = auth.issuer === null ? undefined : auth.people.localBySubject(caller.identity.slice(caller.identity.lastIndexOf('|') + 1));
    if (person === undefined || `${person.iss}|${person.sub}` !== caller.identity) {
      throw invalidParams('you do not sign in at this gate with a password: change it where you sign in', { reason: 'not_signed_in_here' });
    }
    // Counted for this person alone, apart from the sign-in form's counts.
    const attempt = { email: caller.identity, client: caller.identity, device: `password-change ${caller.identity}` };
    const verdict = auth.passwordChecks.check(attempt);
    if (verdict.refused) {
      throw invalidParams(`too many wrong passwords; try again in ${verdict.retryAfterS} seconds`, { reason: 'throttled', retry_after_s: verdict.retryAfterS });
    }
    if (verdict.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, verdict.delayMs));
    if (!(await verifyPassword(p.current, person.password))) {
      auth.passwordChecks.failed(attempt);
      throw invalidParams('the current password is not right', { field: 'current', reason: 'wrong_password' });
    }
    auth.passwordChecks.succeeded(attempt);
    if (p.password === p.current) throw invalidParams('the new password is the current one', { field: 'password' });
    const eventId = await setPassword({ store, auth, clock }, { iss: person.iss, sub: person.sub }, p.password, 'changed', caller.identity, {
      ...(caller.session === undefined ? {} : { keepSession: caller.session }),
    });
    return { identity: caller.identity, changed: true as const, event_id: eventId };
  },
});

/**
 * The operator's reset of a person's password (`gate people reset`), on the local socket: a
 * new password (asked twice by the command), or a one-time link for the person to set their
 * own. The person keeps their identity, role, grants and past signatures; every reset is
 * journaled, operator-signed when operator keys are set.
 */
export const personResetVerb = defineVerb({
  name: 'gv.person_reset',
  role: 'admin',
  summary: "Reset the password of a person who signs in here (operator only, on the local socket): a new password, or a one-time link; identity, grants and signatures kept; journaled.",
  surfaces: ['socket'],
  params: z.strictObject({
    email: z.string().max(254).regex(EMAIL_SHAPE, 'not an email address'),
    password: newPassword.optional(),
    link: z.literal(true).optional(),
    proof: proofParam.optional(),
  }),
  answer: personResetAnswer,
  uses: ['store', 'auth', 'config', 'clock'],
  async handler(ctx, p) {
    const { caller, store, auth, clock, config } = ctx;
    const iss = auth.issuer;
    if (iss === null) throw invalidParams('this gate is not a sign-in provider: set [auth].issuer first', { reason: 'no_issuer' });
    if ((p.password === undefined) === (p.link === undefined)) {
      throw invalidParams('give a new password, or link: true for a one-time link the person opens to set their own', { field: 'password' });
    }
    const email = normalEmail(p.email);
    const person = auth.people.localByEmail(email);
    if (person === undefined) throw invalidParams(`nobody signs in here with email ${email}`, { field: 'email' });
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.person_reset') ?? undefined;
    const by = caller.identity;
    const who = { iss: person.iss, sub: person.sub };
    const identity = `${person.iss}|${person.sub}`;
    if (p.password !== undefined) {
      const eventId = await setPassword({ store, auth, clock }, who, p.password, 'reset', by, { ...(operatorKey === undefined ? {} : { operatorKey }) });
      return { email, identity, reset: 'password' as const, event_id: eventId };
    }
    const link = await issueResetLink({ store, auth, clock }, who, by, operatorKey);
    // Where people reach the gate (server.public_url, else the issuer): the page is the sign-in provider's.
    const url = new URL(`${publicUrl(config) ?? iss}/oauth/reset`);
    url.searchParams.set('token', link.token);
    return { email, identity, reset: 'link' as const, link: url.href, expires_at: link.expiresAt, event_id: link.eventId };
  },
});
