import { when } from './when.js';
import { Person } from './person.js';
import { useEffect, useState } from 'preact/hooks';
import { useEventTail, type TailEvent } from './live.js';
import { Problem } from './problem.js';
import { replaceQuery, type Place } from './route.js';
import { rpc } from './rpc.js';
import { whatHappened } from './event-words.js';

// gv.events for a person: the most recent events first (the screen opens on history, not on
// an empty tail), new ones added on top as they are journaled, each linking to its row; and
// the person's own recent decisions, so a row just approved or rejected is one click away.

const KEEP = 300;
const RECENT = 50;
/** The events a person's decision journals; a request for evidence is a `ratify` entering NEEDS_EVIDENCE (docs/review.md). */
const DECISIONS = ['manual-sign', 'disposition', 'ratify', 'promote', 'reject', 'demote', 'reopen', 'cancel', 'countersign'];
/** How far back "my recent decisions" looks, in decision events of anyone's. */
const DECISIONS_SCANNED = 500;
const MINE_SHOWN = 20;

type Filter = { type: string; space: string; workarea: string };

const filterOf = (q: URLSearchParams): Filter => ({ type: q.get('type') ?? '', space: q.get('space') ?? '', workarea: q.get('workarea') ?? '' });
const paramsOf = (f: Filter) => ({
  ...(f.type ? { types: [f.type] } : {}),
  ...(f.space ? { space: f.space } : {}),
  ...(f.workarea ? { workarea: f.workarea } : {}),
});

export function Events({ place, you }: { place: Place; you: { identity: string } }) {
  const [events, setEvents] = useState<TailEvent[]>([]);
  const [mine, setMine] = useState<TailEvent[] | null>(null);
  const [paused, setPaused] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [filter, setFilter] = useState(() => filterOf(place.query));
  // The address is the screen's state: a filter edited in the address bar applies at once.
  const addressQuery = place.query.toString();
  useEffect(() => setFilter(filterOf(place.query)), [addressQuery]);
  const params = paramsOf(filter);
  const key = JSON.stringify(params);

  useEffect(() => {
    let live = true;
    setEvents([]);
    void rpc('gv.events', { ...params, direction: 'backward', limit: RECENT })
      .then((page) => live && setEvents((tail) => [...tail, ...page.events].slice(0, KEEP)))
      .catch((e) => live && setError(e));
    return () => void (live = false);
  }, [key]);
  const loadMine = () =>
    rpc('gv.events', { types: DECISIONS, direction: 'backward', limit: DECISIONS_SCANNED })
      .then((page) => setMine(page.events.filter((e) => e.by === you.identity).slice(0, MINE_SHOWN)))
      .catch((e) => setError(e));
  useEffect(() => void loadMine(), []);
  useEventTail(
    (page) => {
      setEvents((old) => [...page.reverse(), ...old].slice(0, KEEP));
      if (page.some((e) => e.by === you.identity && DECISIONS.includes(e.type))) void loadMine();
    },
    params,
    paused,
  );
  const change = (name: keyof Filter, value: string) => {
    const next = { ...filter, [name]: value };
    setFilter(next);
    replaceQuery(new URLSearchParams(next));
  };
  return (
    <section aria-label="Events">
      <h2>Events</h2>
      <Problem error={error} />
      <h3>My recent decisions</h3>
      {mine === null ? (
        <p class="hint">Loading…</p>
      ) : mine.length === 0 ? (
        <p class="empty">None among the last {DECISIONS_SCANNED} decisions journaled.</p>
      ) : (
        <EventTable events={mine} label="My recent decisions" kind="decisions" />
      )}
      <h3>All events</h3>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {(['type', 'space', 'workarea'] as const).map((name) => (
          <label>
            {name}{' '}
            <input name={name} value={filter[name]} onChange={(e) => change(name, (e.target as HTMLInputElement).value.trim())} placeholder={name === 'type' ? 'e.g. promote' : ''} />
          </label>
        ))}
        <button type="button" onClick={() => setPaused(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </form>
      <p class="hint">The latest {RECENT} first; new events appear on top as they are journaled (checked every few seconds while this tab is shown).</p>
      <EventTable events={events} label="All events" kind="events" />
    </section>
  );
}

/** What happened, in words, and the journal's type beside them when the words are not the type itself. */
function EventWords({ e }: { e: TailEvent }) {
  const words = whatHappened(e);
  return (
    <td class="what">
      {words}
      {words !== e.type && <span class="type hint"> ({e.type})</span>}
    </td>
  );
}

function EventTable({ events, label, kind }: { events: TailEvent[]; label: string; kind: 'events' | 'decisions' }) {
  return (
    <table class={kind} aria-label={label}>
      <tbody>
        {events.map((e) => (
          <tr data-type={e.type} data-event={e.event_id}>
            <td>
              <time>{when(e.ts)}</time>
            </td>
            <EventWords e={e} />
            <td>{e.artifact_id ? <a href={`#/row/${encodeURIComponent(e.artifact_id)}`}>{String(e.artifact_id).slice(0, 16)}</a> : (e.object ?? '')}</td>
            <td>
              {e.space ?? ''} {e.workarea ? `· ${e.workarea}` : ''}
            </td>
            <td>{e.leaves || e.enters ? `${e.leaves ?? ''} → ${e.enters ?? ''}` : ''}</td>
            <td class="by">
              <Person identity={e.by} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
