import { useEffect, useState } from 'preact/hooks';
import { Problem } from './problem.js';
import { replaceQuery, type Place } from './route.js';
import { rpc } from './rpc.js';
import { recallSentence } from './recall-sentence.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';

// Recall as an agent asks it, for a person: the same verb, mode and scope. A held row (the
// caller's own, not yet reviewed) is marked so nobody mistakes it for promoted knowledge, and
// a provisional one (promoted here, not countersigned by an organization) says so.
// A person searches where they can read unless they narrow it: scope `all` is every space
// the caller reads (docs/recall.md), where `space` would only look in one.

/** gv.recall's scopes, each said as what it searches. */
const SCOPES = [
  ['all', 'every space you can read'],
  ['space', 'one space'],
  ['closest', 'a work area, else the nearest above it'],
  ['workarea', 'one work area and below'],
] as const;

export function Search({ place }: { place: Place }) {
  const q = place.query;
  const fromAddress = () => ({ query: q.get('q') ?? '', mode: q.get('mode') ?? 'hybrid', scope: q.get('scope') ?? 'all', space: q.get('space') ?? 'main', workarea: q.get('workarea') ?? '' });
  const [form, setForm] = useState(fromAddress);
  const [answer, setAnswer] = useState<VerbAnswer<'gv.recall'> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const field = (name: keyof typeof form) => (e: Event) => setForm({ ...form, [name]: (e.target as HTMLInputElement).value });

  const search = async (asked = form) => {
    replaceQuery(new URLSearchParams({ q: asked.query, mode: asked.mode, scope: asked.scope, space: asked.space, workarea: asked.workarea }));
    const form = asked;
    const params: Record<string, unknown> = { mode: form.mode, scope: form.scope, ...(form.query ? { query: form.query } : {}) };
    if (form.scope !== 'all') params['space'] = form.space;
    if ((form.scope === 'closest' || form.scope === 'workarea') && form.workarea) params['workarea'] = form.workarea;
    try {
      setAnswer(await rpc('gv.recall', params));
      setError(null);
    } catch (e) {
      setError(e);
    }
  };

  // The address is the search: a link with q (shared, or edited in the address bar) runs it.
  const addressQuery = q.toString();
  useEffect(() => {
    const asked = fromAddress();
    setForm(asked);
    if (asked.query !== '') void search(asked);
  }, [addressQuery]);

  return (
    <section aria-label="Search">
      <h2>Search</h2>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <input name="q" type="search" value={form.query} onInput={field('query')} placeholder="What do you want to recall?" />
        <label>
          mode{' '}
          <select name="mode" value={form.mode} onChange={field('mode')}>
            {['hybrid', 'lexical', 'vector'].map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          scope{' '}
          <select name="scope" value={form.scope} onChange={field('scope')}>
            {SCOPES.map(([m, words]) => (
              <option value={m}>{words}</option>
            ))}
          </select>
        </label>
        {form.scope !== 'all' && (
          <label>
            space <input name="space" value={form.space} onInput={field('space')} />
          </label>
        )}
        {(form.scope === 'closest' || form.scope === 'workarea') && (
          <label>
            work area <input name="workarea" value={form.workarea} onInput={field('workarea')} />
          </label>
        )}
        <button type="submit">Search</button>
      </form>
      <Problem error={error} />
      {answer && (
        <>
          <p class="hint answered">{recallSentence(answer)}</p>
          <ol class="hits">
            {answer.hits.map((h) => (
              <li class={h.held ? 'held' : ''} data-id={h.artifact_id}>
                <a class="id" href={`#/row/${encodeURIComponent(h.artifact_id)}`}>
                  {h.artifact_id.slice(0, 16)}
                </a>{' '}
                {h.held && <span class="tag held-tag">held, not reviewed</span>}{' '}
                {h.provisional && (
                  <span class="tag provisional-tag" title="promoted by this gate's review; no organization has countersigned it yet (docs/recall.md)">
                    provisional: not countersigned
                  </span>
                )}{' '}
                <span class="hint">{h.space} · {h.workarea}</span>{' '}
                <span class="hint">score {typeof h.score === 'number' ? h.score.toFixed(3) : '—'}</span>
                <div class="hit-body">{String(h.body ?? '').slice(0, 400)}</div>
              </li>
            ))}
          </ol>
          {answer.steering?.length > 0 && (
            <>
              <h3>Steering in force</h3>
              <ul>
                {answer.steering.map((s) => (
                  <li>
                    {s.workarea}: {s.body}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
