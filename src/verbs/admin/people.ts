import type { AuthPart } from '../../auth/auth-part.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { ORDERED_ROLES, roleRank, type OrderedRole } from '../../domain/roles.js';
import { EMAIL_SHAPE, normalEmail } from '../../auth/people-file.js';
import { hashPassword } from '../../auth/password-hash.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import type { PersonRow } from '../../projections/people-reads.js';
import { eventIdAnswer } from '../answer-types.js';

const issParam = z.string().min(1).max(512).regex(/^[^|\s]+$/, 'an issuer has no | and no white space');
const subParam = z.string().min(1).max(255).regex(/^[^|\s]+$/, 'a subject has no | and no white space');
const roleParam = z.enum(ORDERED_ROLES);

function entryView(auth: AuthPart, r: PersonRow) {
  return {
    iss: r.iss,
    sub: r.sub,
    identity: `${r.iss}|${r.sub}`,
    role: r.role,
    source: 'people' as const,
    demo: r.demo === 1,
    email: r.email,
    name: r.name,
    assigned_by: r.assigned_by,
    assigned_at: r.assigned_at,
    // Anyone in the people file signs in here, at whatever issuer URL they were added under (docs/operations.md, "Moving the public URL").
    signs_in_here: auth.people.bySubject(r.iss, r.sub) !== undefined,
  };
}

/** The people table, then the config's admins the table does not name (source `config`). */
function peopleList({ store, auth, config }: Pick<VerbContext, 'store' | 'auth' | 'config'>) {
  const rows = store.people.all();
  const named = new Set(rows.map((r) => `${r.iss}|${r.sub}`));
  const fromConfig = config.auth.admins
    .filter((identity) => !named.has(identity))
    .map((identity) => {
      const cut = identity.lastIndexOf('|');
      return { iss: identity.slice(0, cut), sub: identity.slice(cut + 1), identity, role: 'admin' as const, source: 'config' as const, demo: false };
    });
  return { issuer: auth.issuer, people: [...rows.map((r) => entryView(auth, r)), ...fromConfig] };
}

function assignable(ctx: Pick<VerbContext, 'caller'>, role: OrderedRole): void {
  if (roleRank(role) > roleRank(ctx.caller.role)) {
    throw invalidParams(`a person's role may not be above the assigner's: ${role} is above ${ctx.caller.role}`, { field: 'role' });
  }
}

function issuerOf({ auth }: Pick<VerbContext, 'auth'>, iss: string | undefined): string {
  if (iss !== undefined) return iss;
  if (auth.issuer === null) throw invalidParams('missing field: iss (this gate is not a sign-in provider, so there is no default issuer)', { field: 'iss' });
  return auth.issuer;
}

const personRole = z.enum(ORDERED_ROLES);

/** A person as gv.people lists them: from the people file, or an admin the configuration names. */
const personAnswer = z.union([
  z.object({
    iss: z.string(),
    sub: z.string(),
    identity: z.string(),
    role: personRole,
    source: z.literal('people'),
    demo: z.boolean(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    assigned_by: z.string(),
    assigned_at: z.number().int(),
    signs_in_here: z.boolean(),
  }),
  z.object({ iss: z.string(), sub: z.string(), identity: z.string(), role: z.literal('admin'), source: z.literal('config'), demo: z.boolean() }),
]);

/** The list; an assignment and the list after it; or a removal. */
const peopleAnswer = z.union([
  z.object({
    issuer: z.string().nullable(),
    people: z.array(personAnswer),
    iss: z.string().optional(),
    sub: z.string().optional(),
    role: personRole.optional(),
    event_id: eventIdAnswer.optional(),
    changed: z.boolean().optional(),
  }),
  z.object({
    iss: z.string(),
    sub: z.string(),
    removed: z.boolean(),
    event_id: eventIdAnswer.optional(),
    was: personRole.optional(),
  }),
]);

export const peopleVerb = defineVerb({
  name: 'gv.people',
  role: 'admin',
  summary: "List signed-in people's roles, assign one, or remove a person; operator-signed when operator keys are set.",
  params: z.strictObject({
    action: z.enum(['list', 'assign', 'remove']).optional(),
    iss: issParam.optional(),
    sub: subParam.optional(),
    role: roleParam.optional(),
    demo: z.boolean().optional(),
    email: z.string().max(254).regex(EMAIL_SHAPE, 'not an email address').optional(),
    name: z.string().min(1).max(200).optional(),
    proof: proofParam.optional(),
  }),
  answer: peopleAnswer,
  uses: ['store', 'auth', 'config'],
  async handler(ctx, p) {
    const { caller, store, auth } = ctx;
    const action = p.action ?? 'list';
    if (action === 'list') return peopleList(ctx);
    if (p.sub === undefined) throw invalidParams(`missing field: sub (${action} names a person by iss and sub)`, { field: 'sub' });
    const iss = issuerOf(ctx, p.iss);
    const sub = p.sub;
    const current = () => store.people.one(iss, sub);
    if (action === 'assign') {
      if (p.role === undefined) throw invalidParams('missing field: role (assign names the role)', { field: 'role' });
      const role = p.role;
      assignable(ctx, role);
      const before = current();
      const credential = auth.people.bySubject(iss, sub);
      const entry = {
        iss,
        sub,
        role,
        demo: p.demo ?? before?.demo === 1,
        ...((p.email ?? before?.email ?? credential?.email) ? { email: p.email ?? before?.email ?? credential?.email } : {}),
        ...((p.name ?? before?.name ?? credential?.name) ? { name: p.name ?? before?.name ?? credential?.name } : {}),
      };
      if (
        before !== undefined &&
        before.role === entry.role &&
        (before.demo === 1) === entry.demo &&
        before.email === (entry.email ?? null) &&
        before.name === (entry.name ?? null)
      ) {
        return { iss, sub, role, event_id: before.event_id, changed: false, ...peopleList(ctx) };
      }
      const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.people assign');
      const event = await store.writer.write(() => store.journal.append('person-assigned', caller.identity, { ...entry, ...provenBy(operatorKey) }));
      return { iss, sub, role, event_id: event.event_id, changed: true, ...peopleList(ctx) };
    }
    for (const field of ['role', 'demo', 'email', 'name'] as const) {
      if (p[field] !== undefined) throw invalidParams(`field ${field} is for assign, not remove`, { field });
    }
    const before = current();
    const signsInHere = auth.people.bySubject(iss, sub) !== undefined;
    if (before === undefined && !signsInHere) return { iss, sub, removed: false };
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.people remove');
    // The role entry goes and every open sign-in session ends in one journal write; then
    // the sign-in itself is forgotten, so the person's tokens are refused from here on.
    const event = await store.writer.write(() => {
      auth.signinSessions.endAllOf(iss, sub, 'person_removed');
      return store.journal.append('person-removed', caller.identity, { iss, sub, ...provenBy(operatorKey) });
    });
    if (signsInHere) auth.people.remove(iss, sub);
    return { iss, sub, removed: true, ...(before === undefined ? {} : { was: before.role }), event_id: event.event_id };
  },
});

/**
 * The operator's door for people who sign in at this gate (`gate people add`): a password
 * crosses only the local socket, is hashed with scrypt and written to the people file;
 * the role entry is journaled like gv.people assign.
 */
const personAddAnswer = z.object({
  iss: z.string(),
  sub: z.string(),
  identity: z.string(),
  email: z.string(),
  role: z.enum(['reader', 'agent', 'reviewer', 'admin']),
  demo: z.boolean(),
  event_id: z.string(),
});

export const personAddVerb = defineVerb({
  name: 'gv.person_add',
  role: 'admin',
  summary: 'Add a person who signs in here with email and password (operator only, on the local socket).',
  surfaces: ['socket'],
  params: z.strictObject({
    email: z.string().max(254).regex(EMAIL_SHAPE, 'not an email address'),
    password: z.string().min(8, 'a password has at least 8 characters').max(1024),
    role: roleParam.optional(),
    demo: z.boolean().optional(),
    name: z.string().min(1).max(200).optional(),
    proof: proofParam.optional(),
  }),
  answer: personAddAnswer,
  uses: ['store', 'auth', 'clock'],
  async handler(ctx, p) {
    const { caller, store, auth, clock } = ctx;
    const iss = auth.issuer;
    if (iss === null) throw invalidParams('this gate is not a sign-in provider: set [auth].issuer first', { reason: 'no_issuer' });
    const email = normalEmail(p.email);
    const role = p.role ?? 'reader';
    assignable(ctx, role);
    if (auth.people.localByEmail(email) !== undefined) throw invalidParams(`a person with email ${email} already signs in here`, { field: 'email' });
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.person_add');
    const sub = randomUUID();
    const password = await hashPassword(p.password);
    const demo = p.demo ?? false;
    const event = await store.writer.write(() =>
      store.journal.append('person-assigned', caller.identity, {
        iss,
        sub,
        role,
        demo,
        email,
        ...(p.name === undefined ? {} : { name: p.name }),
        ...provenBy(operatorKey),
      }),
    );
    auth.people.add({ email, iss, sub, password, ...(p.name === undefined ? {} : { name: p.name }), created_at: clock.now() });
    return { iss, sub, identity: `${iss}|${sub}`, email, role, demo, event_id: event.event_id };
  },
});
