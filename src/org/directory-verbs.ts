import { z } from 'zod';
import { defineOrgVerb } from './define-org-verb.js';
import { listMembers } from './org-members.js';
import { listPeople } from './org-people.js';

/**
 * The org's member gates and people as `gate org member list` and `gate org people list`
 * print them, for its console. Changing either stays a command on a host that reaches the
 * database (`gate org member add`, `gate org people assign`): these verbs only read.
 */
export const orgMembersVerb = defineOrgVerb({
  name: 'gv.org_members',
  role: 'reviewer',
  summary: 'The member gates: deployment id, label, when added, whether revoked and how many live submit keys each holds.',
  params: z.strictObject({}),
  handler: async (ctx) => ({ members: await listMembers(ctx.pool) }),
});

/** Admin, as the gate's gv.people is: who holds which role is the admins' to read. */
export const orgPeopleVerb = defineOrgVerb({
  name: 'gv.org_people',
  role: 'admin',
  summary: "The org's people with their roles: the people table, then the admins only [auth].admins names (source config).",
  params: z.strictObject({}),
  handler: async (ctx) => ({ people: await listPeople(ctx.pool, ctx.admins) }),
});
