/**
 * The people of a `gv.people` list who sign in with this email, compared without letter
 * case (people know each other by email; the verbs name identities), optionally at one
 * issuer. The caller decides what none or several mean: an email that signs in at two
 * issuers is never guessed between.
 */
export function peopleByEmail(people: ReadonlyArray<Record<string, unknown>>, email: string, iss?: string): Array<Record<string, unknown>> {
  const wanted = email.toLowerCase();
  return people.filter((p) => typeof p['email'] === 'string' && p['email'].toLowerCase() === wanted && (iss === undefined || p['iss'] === iss));
}
