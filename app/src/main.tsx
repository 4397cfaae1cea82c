import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Admin } from './admin.js';
import { Bans } from './bans.js';
import { ConsoleHeader } from './console-header.js';
import { Events } from './events.js';
import { Mine } from './mine.js';
import { Operator } from './operator.js';
import { Password } from './password.js';
import { Queue } from './queue.js';
import { Questions } from './questions.js';
import { go, parsePlace, placeKey, usePlace } from './route.js';
import { Row } from './row.js';
import { Search } from './search.js';
import { rpc, whenSignedOut } from './rpc.js';
import { claimsOf, loadIdentity, resume, signIn, signOut, type Identity } from './session.js';
import { sentence } from './problem.js';
import { atLeast as roleAtLeast, type OrderedRole, type Role } from '../../src/domain/roles.js';

// The console's frame: who is signed in, which screens their role opens, and the one place
// a screen's notices appear. Screens read verbs only; nothing here decides for the gate.
// A notice belongs to the place it reports on (a row, the queue): it is shown there and goes
// as soon as the person moves elsewhere, so "Rejected." never stands over another row.

interface You {
  identity: string;
  role: string;
  demo?: boolean;
}

/** The role order is the gate's own (src/domain/roles.ts): a role it does not know ranks below reader. */
const atLeast = (you: You, role: OrderedRole) => roleAtLeast(you.role as Role, role);

function App() {
  const [identity, setIdentity] = useState<Identity | null>(null);
  const [you, setYou] = useState<You | null | undefined>(undefined);
  const [who, setWho] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; on: string } | null>(null);
  const place = usePlace();
  const here = placeKey(place);
  /** A notice for the place the person is at when the act ends, or for `on` when the act moves them there. */
  const tell = (text: string, on: string = placeKey(parsePlace())) => setNotice({ text, on });
  useEffect(() => setNotice((n) => (n !== null && n.on === here ? n : null)), [here]);

  useEffect(() => {
    whenSignedOut(() => setYou(null));
    void (async () => {
      try {
        const id = await loadIdentity();
        setIdentity(id);
        if (id.auth.issuer === null) return setProblem('This gate signs nobody in: use an API key on /rpc, or the local socket.');
        const tokens = await resume();
        // Back from the provider, resume() put the screen the person left from back in the
        // address without a navigation: tell the router.
        dispatchEvent(new HashChangeEvent('hashchange'));
        if (tokens === null) return setYou(null);
        const described = (await rpc('gv.describe')).you as You;
        const claims = claimsOf(tokens.id_token);
        setWho(claims.email ?? claims.name ?? '');
        setYou(described);
      } catch (e) {
        setProblem(sentence(e));
      }
    })();
  }, []);

  let status = 'Loading…';
  if (problem !== null) status = problem;
  else if (you === null) status = 'Not signed in.';
  else if (you !== undefined) status = `Signed in as ${who === '' ? you.identity : `${who} (${you.identity})`}, role ${you.role}${you.demo ? ' (demo)' : ''}.`;

  // A person who signs in here with a password may change it; one of another issuer changes it there.
  const ownPassword: [string, string][] =
    you && identity?.auth.issuer && you.identity.startsWith(`${identity.auth.issuer}|`) ? [['password', 'Password']] : [];
  const byRole: [string, string][] =
    you === null || you === undefined
      ? []
      : atLeast(you, 'reviewer')
        ? [
            ['queue', 'Queue'],
            ['questions', 'Questions'],
            ['events', 'Events'],
            ['search', 'Search'],
            ['operator', 'Operator'],
            ['bans', 'Bans'],
            ...(atLeast(you, 'admin') ? ([['admin', 'Admin']] as [string, string][]) : []),
          ]
        : [
            ['mine', 'My rows'],
            ['search', 'Search'],
            ['events', 'Events'],
          ];
  const screens = [...byRole, ...ownPassword];
  const screen = screens.some(([s]) => s === place.screen) || place.screen === 'row' ? place.screen : (screens[0]?.[0] ?? '');

  return (
    <>
      <ConsoleHeader title="Gate" screens={screens} screen={screen} status={status} problem={problem !== null}>
        <p>
          <button id="sign-in" type="button" hidden={you !== null || problem !== null} onClick={() => void signIn().catch((e) => setProblem(sentence(e)))}>
            Sign in
          </button>{' '}
          <button
            id="sign-out"
            type="button"
            hidden={you === null || you === undefined}
            onClick={() =>
              void signOut()
                .then(() => (setYou(null), go('')))
                .catch((e) => setProblem(sentence(e)))
            }
          >
            Sign out
          </button>
        </p>
        <p id="deployment">{identity ? `deployment ${identity.deployment_id}` : ''}</p>
      </ConsoleHeader>
      <p id="notice" role="status" aria-live="polite">
        {notice !== null && notice.on === here ? notice.text : ''}
      </p>
      {you && screen === 'queue' && <Queue place={place} onNotice={tell} />}
      {you && screen === 'row' && place.arg && <Row key={place.arg} id={place.arg} place={place} you={you} deploymentId={identity!.deployment_id} onNotice={tell} />}
      {you && screen === 'events' && <Events place={place} you={you} />}
      {you && screen === 'operator' && <Operator admin={atLeast(you, 'admin')} onNotice={tell} />}
      {you && screen === 'search' && <Search place={place} />}
      {you && screen === 'admin' && <Admin onNotice={tell} />}
      {you && screen === 'mine' && <Mine you={you} />}
      {you && screen === 'questions' && <Questions you={you} onNotice={tell} />}
      {you && screen === 'bans' && <Bans admin={atLeast(you, 'admin')} onNotice={tell} />}
      {you && screen === 'password' && <Password onNotice={tell} />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
