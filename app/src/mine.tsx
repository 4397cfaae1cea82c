import { useEffect, useState } from 'preact/hooks';
import { Person } from './person.js';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';

/** Below reviewer: a read-only list of what the caller may read (their own rows and what is promoted). */
export function Mine({ you }: { you: { identity: string } }) {
  const [rows, setRows] = useState<VerbAnswer<'gv.inventory'>['artifacts'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    rpc('gv.inventory', { limit: 200 })
      .then((r) => setRows(r.artifacts))
      .catch(setError);
  }, []);
  if (rows === null) return error ? <Problem error={error} /> : <p>Loading…</p>;
  return (
    <section aria-label="My rows">
      <h2>Rows you may read</h2>
      {rows.length === 0 ? (
        <p class="empty">Nothing yet: your rows and promoted rows appear here.</p>
      ) : (
        <table class="queue">
          <thead>
            <tr>
              <th>row</th>
              <th>state</th>
              <th>kind</th>
              <th>space · area</th>
              <th>writer</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td>
                  <a class="id" href={`#/row/${encodeURIComponent(r.artifact_id)}`}>
                    {r.artifact_id.slice(0, 16)}
                  </a>
                  {r.writer_identity === you.identity && <span class="tag">yours</span>}
                </td>
                <td>
                  {r.state}
                  {r.evidence_asked && (
                    <div class="asks">
                      evidence asked: <q>{r.evidence_asked}</q>
                    </div>
                  )}
                </td>
                <td>{r.kind ?? r.content_type}</td>
                <td>
                  {r.space} · {r.workarea ?? '—'}
                </td>
                <td>
                  <Person identity={r.writer_identity} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
