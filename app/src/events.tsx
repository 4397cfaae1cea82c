import { when } from './when.js';
import { useState } from 'preact/hooks';
import { useEventTail, type TailEvent } from './live.js';
import { replaceQuery, type Place } from './route.js';

// A live tail of gv.events: newest on top, a few hundred kept, each linking to its row.

const KEEP = 300;

export function Events({ place }: { place: Place }) {
  const [events, setEvents] = useState<TailEvent[]>([]);
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState(() => ({ type: place.query.get('type') ?? '', space: place.query.get('space') ?? '', workarea: place.query.get('workarea') ?? '' }));
  const params = {
    ...(filter.type ? { types: [filter.type] } : {}),
    ...(filter.space ? { space: filter.space } : {}),
    ...(filter.workarea ? { workarea: filter.workarea } : {}),
  };
  useEventTail((page) => setEvents((old) => [...page.reverse(), ...old].slice(0, KEEP)), params, paused);
  const change = (name: keyof typeof filter, value: string) => {
    const next = { ...filter, [name]: value };
    setFilter(next);
    setEvents([]);
    replaceQuery(new URLSearchParams(next));
  };
  return (
    <section aria-label="Events">
      <h2>Events</h2>
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
      <p class="hint">New events appear as they are journaled (checked every few seconds while this tab is shown).</p>
      <table class="events">
        <tbody>
          {events.map((e) => (
            <tr data-type={e.type}>
              <td>
                <time>{when(e.ts)}</time>
              </td>
              <td class="type">{e.type}</td>
              <td>{e.artifact_id ? <a href={`#/row/${encodeURIComponent(e.artifact_id)}`}>{String(e.artifact_id).slice(0, 16)}</a> : (e.object ?? '')}</td>
              <td>
                {e.space ?? ''} {e.workarea ? `· ${e.workarea}` : ''}
              </td>
              <td>{e.leaves || e.enters ? `${e.leaves ?? ''} → ${e.enters ?? ''}` : ''}</td>
              <td class="by">{e.by ?? 'the deployment'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
