import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ConsoleHeader } from '../console-header.js';
import { sentence } from '../problem.js';
import { parsePlace, placeKey, usePlace } from '../route.js';
import { whenSignedOut } from '../rpc.js';
import { claimsOf, dropSession, resume, signIn, signInAt } from '../session.js';
import type { OrgIdentity } from '../../../src/org/org-app.js';
import { OrgInbox } from './inbox.js';
import { OrgMembers, useMembers } from './members.js';
import { orgRpc } from './org-rpc.js';
import { OrgOutcomes } from './outcomes.js';
import { OrgPeople } from './people.js';
import { OrgSubmission } from './submission.js';
import { atLeast as roleAtLeast, type OrderedRole, type Role } from '../../../src/domain/roles.js';

// The organization's console: its people sign in at an issuer the org trusts (PKCE in this
// page against that issuer's endpoints, as /identity lists them), then read the inbox,
// decide, and read the org's outcomes, members and people. Every read and decision is a
// verb of the org's /rpc with the person's own token, so a decision is theirs (signer class
// human), never a key's.

type Issuer = OrgIdentity['auth']['issuers'][number];

interface You {
  identity: string;
  role: string;
}

/** The role order is the gate's own (src/domain/roles.ts): a role it does not know ranks below reader. */
const atLeast = (you: You, role: OrderedRole) => roleAtLeast(you.role as Role, role);

/** Which issuer the person chose, kept across the issuer's page (the code comes back to /app with no word of where it came from). */
const CHOSEN = 'gate.org.issuer';

function App() {
  const [identity, setIdentity] = useState<OrgIdentity | null>(null);
  const [you, setYou] = useState<You | null | undefined>(undefined);
  const [who, setWho] = useState('');
  const [issuer, setIssuer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; on: string } | null>(null);
  const place = usePlace();
  const here = placeKey(place);
  const tell = (text: string) => setNotice({ text, on: placeKey(parsePlace()) });
  useEffect(() => setNotice((n) => (n !== null && n.on === here ? n : null)), [here]);
  const { members, error: membersError } = useMembers(you !== null && you !== undefined && atLeast(you, 'reviewer'));
  const labels = new Map((members ?? []).map((m) => [m.deployment_id, m.label]));

  useEffect(() => {
    whenSignedOut(() => setYou(null));
    void (async () => {
      try {
        const id = (await (await fetch('/identity')).json()) as OrgIdentity;
        setIdentity(id);
        if (id.auth.issuers.length === 0) return setProblem('This organization trusts no issuer its people can sign in at ([auth].trusted_issuers): use a review key on /rpc.');
        const chosen = id.auth.issuers.find((i) => i.issuer === sessionStorage.getItem(CHOSEN)) ?? id.auth.issuers[0]!;
        setIssuer(chosen.issuer);
        signInAt(chosen, id.auth.client_id);
        const tokens = await resume();
        dispatchEvent(new HashChangeEvent('hashchange'));
        if (tokens === null) return setYou(null);
        const claims = claimsOf(tokens.id_token);
        setWho(claims.email ?? claims.name ?? '');
        setYou((await orgRpc('gv.describe')).you);
      } catch (e) {
        setProblem(sentence(e));
      }
    })();
  }, []);

  // A role given or taken while signed in shows at the next screen: the org reads it on every call.
  useEffect(() => {
    if (you) void orgRpc('gv.describe').then((d) => setYou((had) => (had && had.role === d.you.role ? had : d.you)), () => {});
  }, [here]);

  const startSignIn = () => {
    const chosen = identity!.auth.issuers.find((i) => i.issuer === issuer) as Issuer;
    sessionStorage.setItem(CHOSEN, chosen.issuer);
    signInAt(chosen, identity!.auth.client_id);
    signIn().catch((e) => setProblem(sentence(e)));
  };

  let status = 'Loading…';
  if (problem !== null) status = problem;
  else if (you === null) status = 'Not signed in.';
  else if (you !== undefined) status = `Signed in as ${who === '' ? you.identity : `${who} (${you.identity})`}, role ${you.role}.`;

  const screens: [string, string][] =
    you && atLeast(you, 'reviewer')
      ? [
          ['inbox', 'Inbox'],
          ['outcomes', 'Outcomes'],
          ['members', 'Members'],
          ...(atLeast(you, 'admin') ? ([['people', 'People']] as [string, string][]) : []),
        ]
      : [];
  const screen = screens.some(([s]) => s === place.screen) || (place.screen === 'submission' && screens.length > 0) ? place.screen : (screens[0]?.[0] ?? '');
  const member = place.query.get('member');

  return (
    <>
      <ConsoleHeader title="Gate organization" screens={screens} screen={screen} status={status} problem={problem !== null}>
        <p hidden={you !== null || problem !== null}>
          {identity !== null && identity.auth.issuers.length > 1 && (
            <label>
              Sign in at{' '}
              <select id="issuer" value={issuer} onChange={(e) => setIssuer((e.target as HTMLSelectElement).value)}>
                {identity.auth.issuers.map((i) => (
                  <option value={i.issuer}>{i.issuer}</option>
                ))}
              </select>{' '}
            </label>
          )}
          <button id="sign-in" type="button" onClick={startSignIn}>
            Sign in{identity !== null && identity.auth.issuers.length === 1 ? ` at ${issuer}` : ''}
          </button>
        </p>
        <p hidden={you === null || you === undefined}>
          <button id="sign-out" type="button" onClick={() => (dropSession(), setYou(null))}>
            Sign out
          </button>
        </p>
        <p id="deployment">{identity ? `organization ${identity.deployment_id}` : ''}</p>
      </ConsoleHeader>
      <p id="notice" role="status" aria-live="polite">
        {notice !== null && notice.on === here ? notice.text : ''}
      </p>
      {you && screens.length === 0 && (
        <p class="reader-note">
          Your role here is {you.role}: an admin gives you one with gate org people assign --iss {you.identity.split('|')[0]} --sub {you.identity.split('|').slice(1).join('|')} --role reviewer.
        </p>
      )}
      {you && screen === 'inbox' && <OrgInbox members={labels} />}
      {you && screen === 'submission' && place.arg && member && <OrgSubmission key={`${member}/${place.arg}`} memberId={member} artifactId={place.arg} you={you.identity} onNotice={tell} />}
      {you && screen === 'outcomes' && <OrgOutcomes members={labels} orgId={identity!.deployment_id} />}
      {you && screen === 'members' && <OrgMembers members={members} error={membersError} />}
      {you && screen === 'people' && <OrgPeople />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
