import type { OrgStaffCaller } from './org-bearer.js';

/**
 * Who counts at the organization for a row (docs/organization.md "Who counts at the
 * organization"): the organization's decision is a second authority, so a person who wrote,
 * signed or promoted the row at the member never decides it here. The member's people are
 * read from the submission the member signed; the person deciding is matched with each of
 * them by what both sides assert:
 *
 * - the same issuer: the identity `iss|sub` (the organization trusts the member's issuer, and
 *   the person signed in there): the same identity is the same person, another subject of the
 *   same issuer another person;
 * - two issuers: the email. The member states each person's email and whether its issuer
 *   verified it (`submission.people`); the person's access token here states theirs. The same
 *   address, verified or not, is taken for the same person (counting it would be the risk);
 *   two different addresses tell two people apart only when both are verified;
 * - anything else (no email on either side, an unverified one, an operator known only by a
 *   socket account) makes no match: the person might be the member's, so their decision waits
 *   until more people make it than there are member people they could be (org-decision.ts):
 *   a second person's, when the member names one.
 *
 * A key is no person: its holder decides as an `agent`, which the member counts as that class.
 */

/** One of the member's people the submission names: a person's identity, the email the member states, and what they did to the row. */
export interface MemberPerson {
  identity: string;
  email: string | null;
  email_verified: boolean;
  acts: string[];
}

export type Standing =
  | { counts: 'alone'; says: null }
  | { counts: 'not'; why: 'same_identity' | 'same_email'; person: string; acts: string[]; says: string }
  | { counts: 'with_others'; why: 'no_match'; unmatched: string[]; people_needed: number; says: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** An identity a person holds at the member: `iss|sub`. Keys (`key:`), models and the deployment are not people. */
const personIdentity = (identity: unknown): identity is string => typeof identity === 'string' && identity.includes('|');
const issuerOf = (identity: string) => identity.slice(0, identity.indexOf('|'));
const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * The member's people a submission names, each with what they did: its writer, every signer
 * and decider of class human (an operator's signature with a proof among them, whose identity
 * is a socket account), and whoever journaled its promote or ratify events.
 */
export function memberPeople(submission: Json): MemberPerson[] {
  const people = new Map<string, MemberPerson>();
  const add = (identity: unknown, act: string, human: boolean) => {
    if (typeof identity !== 'string' || identity === '' || !(human || personIdentity(identity))) return;
    const known = people.get(identity) ?? { identity, email: null, email_verified: false, acts: [] };
    if (!known.acts.includes(act)) known.acts.push(act);
    people.set(identity, known);
  };
  const envelope = isObject(submission['envelope']) ? submission['envelope'] : {};
  add(envelope['writer_identity'], 'wrote it', false);
  const approval = isObject(submission['approval']) ? submission['approval'] : {};
  for (const s of list(approval['signers'])) add(s['identity'], String(s['decision'] ?? 'signed'), s['class'] === 'human');
  for (const d of list(approval['decisions'])) add(d['by'], String(d['decision'] ?? d['type'] ?? 'decided'), d['class'] === 'human');
  for (const d of list(submission['decisions'])) add(d['by'], String(d['type'] ?? 'decided'), false);
  for (const p of list(submission['promotions'])) {
    try {
      const event = JSON.parse(String(p['event'])) as { type?: unknown; by?: unknown };
      add(event.by, String(event.type ?? 'promote'), false);
    } catch {
      // An event that is not JSON names nobody; the intake refused such a submission already.
    }
  }
  for (const stated of list(submission['people'])) {
    const known = typeof stated['identity'] === 'string' ? people.get(stated['identity']) : undefined;
    if (known === undefined || typeof stated['email'] !== 'string') continue;
    known.email = stated['email'];
    known.email_verified = stated['email_verified'] === true;
  }
  return [...people.values()];
}

type Match = 'same_identity' | 'same_email' | 'apart' | 'unknown';

function match(caller: OrgStaffCaller, person: MemberPerson): Match {
  if (person.identity === caller.identity) return 'same_identity';
  if (personIdentity(person.identity) && issuerOf(person.identity) === issuerOf(caller.identity)) return 'apart';
  const mine = caller.email;
  if (mine === null || person.email === null) return 'unknown';
  if (normalEmail(mine.address) === normalEmail(person.email)) return 'same_email';
  return mine.verified && person.email_verified ? 'apart' : 'unknown';
}

const actsOf = (p: MemberPerson) => p.acts.join(', ');

/** How the caller's decision on this submission counts, with the sentence the console and `gate org review` show before anyone decides. */
export function standingOf(caller: OrgStaffCaller, submission: Json): Standing {
  if (caller.kind !== 'person') return { counts: 'alone', says: null };
  const people = memberPeople(submission);
  const matched = people.map((p) => ({ p, m: match(caller, p) }));
  const same = matched.find((x) => x.m === 'same_identity') ?? matched.find((x) => x.m === 'same_email');
  if (same !== undefined) {
    const how = same.m === 'same_identity' ? `as ${same.p.identity}` : `as ${same.p.identity}, with the email your sign-in here states`;
    return {
      counts: 'not',
      why: same.m as 'same_identity' | 'same_email',
      person: same.p.identity,
      acts: same.p.acts,
      says: `You acted on this row at the member (${actsOf(same.p)}) ${how}: a person who signed a row at the member never counts at the organization for it. Another reviewer decides it.`,
    };
  }
  const unmatched = matched.filter((x) => x.m === 'unknown').map((x) => x.p);
  if (unmatched.length === 0) return { counts: 'alone', says: null };
  // Distinct people outnumbering the member's people none of them could be told apart from: one at least is not among them.
  const needed = unmatched.length + 1;
  const whom = unmatched.map((p) => `${p.identity} (${actsOf(p)})`).join(unmatched.length === 2 ? ' or ' : ', ');
  return {
    counts: 'with_others',
    why: 'no_match',
    unmatched: unmatched.map((p) => p.identity),
    people_needed: needed,
    says: `The organization cannot tell whether you are the member's ${whom}: you signed in at another issuer, and no verified email both issuers assert tells you apart. Your decision is recorded and stands once ${needed === 2 ? 'a second person makes it too' : `${needed} people in all make it`}.`,
  };
}
