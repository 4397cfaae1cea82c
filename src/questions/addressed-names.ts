import type { Caller } from '../access/caller.js';
import type { PeopleReads } from '../projections/people-reads.js';

/**
 * How the `names` a question is addressed to meet a person (README "Questions"). A name is a
 * producer name (the work-area segment grammar: ASCII letters, digits, `.`, `_`, `-`), so
 * neither an email nor a name with spaces can be written as one; both sides are compared as
 * keys instead: letters folded to ASCII lower case (accents dropped), every run of anything
 * else one `-`, none at either end. A person answers to the key of their email's local part
 * (before the last `@`) and the key of their name as the people table holds them:
 * "Ada Lovelace" <ada.l@example.com> is named by `ada-lovelace`, `Ada_Lovelace`,
 * `ada.lovelace`, `ada.l` and `ADA-L`, never by `ada` or `lovelace` alone.
 */
export function nameKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The keys a person is named by: those of the email's local part and of the name, as the people table holds them. */
export function personNameKeys(people: PeopleReads, caller: Caller): Set<string> {
  const keys = new Set<string>();
  if (caller.kind !== 'person') return keys;
  const person = people.namesOf(caller.identity);
  if (person?.email) {
    const at = person.email.lastIndexOf('@');
    keys.add(nameKey(at > 0 ? person.email.slice(0, at) : person.email));
  }
  if (person?.name) keys.add(nameKey(person.name));
  keys.delete('');
  return keys;
}

/** Whether a question addressed to these names names the person whose keys these are. */
export const namesPerson = (names: readonly string[], keys: ReadonlySet<string>) => names.some((n) => keys.has(nameKey(n)));
