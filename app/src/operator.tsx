import { useCallback, useEffect, useState } from 'preact/hooks';
import { EngagementChart } from './engagement-chart.js';
import { PipelineQueues } from './pipeline-queues.js';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';
import { when } from './when.js';

// What an operator watches: grading runs and a way to start one, how deep quarantine is and
// what waits in the pipeline, whether they are away, whether the model backend answers, and
// their own work per day.

/** gv.grade_pending's own bounds: 50 rows when none is named, at most 10,000. */
const GRADE_LIMIT = { default: 50, max: 10_000 };

export function Operator({ admin, onNotice }: { admin: boolean; onNotice: (t: string) => void }) {
  const [runs, setRuns] = useState<VerbAnswer<'gv.review_runs'> | null>(null);
  const [engagement, setEngagement] = useState<VerbAnswer<'gv.engagement'> | null>(null);
  const [backend, setBackend] = useState<VerbAnswer<'gv.backend_check'> | null>(null);
  const [grading, setGrading] = useState<string | null>(null);
  const [gradeLimit, setGradeLimit] = useState(GRADE_LIMIT.default);
  const [away, setAway] = useState<VerbAnswer<'gv.away'> | VerbAnswer<'gv.back'> | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      const [r, e] = await Promise.all([rpc('gv.review_runs', { limit: 25 }), rpc('gv.engagement', { days: 14 })]);
      setRuns(r);
      setEngagement(e);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void load(), [load]);
  // While a grading run is in flight its progress is the runs list; ask again every few seconds.
  useEffect(() => {
    if (grading === null) return;
    const t = setInterval(() => void load(), 2000);
    return () => clearInterval(t);
  }, [grading]);

  const gradeNow = async () => {
    setGrading(`Grading up to ${gradeLimit} held rows…`);
    try {
      const r = await rpc('gv.grade_pending', { limit: gradeLimit });
      const said = `Graded ${r.graded}, failed ${r.failed}, blocked ${r.blocked}; ${r.cost_tokens} tokens, ${r.budget_remaining} left today${r.paused ? ` (paused: ${r.why_paused ?? 'budget'})` : ''}.`;
      onNotice(said);
      setGrading(null);
      await load();
    } catch (err) {
      setGrading(null);
      setError(err);
    }
  };
  const act = async <T,>(f: () => Promise<T>, say: (r: T) => string): Promise<T | undefined> => {
    try {
      const r = await f();
      onNotice(say(r));
      setError(null);
      return r;
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section aria-label="Operator">
      <h2>Operator</h2>
      <Problem error={error} />
      <PipelineQueues />
      <h3>Grading runs</h3>
      <form
        class="grade-now"
        aria-label="Grade now"
        onSubmit={(e) => {
          e.preventDefault();
          void gradeNow();
        }}
      >
        <label>
          Rows at most{' '}
          <input
            name="grade-limit"
            type="number"
            required
            min={1}
            max={GRADE_LIMIT.max}
            step={1}
            value={gradeLimit}
            onInput={(e) => setGradeLimit((e.target as HTMLInputElement).valueAsNumber)}
          />
        </label>{' '}
        <button type="submit" id="grade-now" disabled={grading !== null}>
          Grade now
        </button>{' '}
        {grading && <span class="progress">{grading} {runs?.in_flight.length ?? 0} in flight.</span>}
      </form>
      {runs && (
        <>
          <p>
            {Object.entries(runs.counts)
              .map(([k, v]) => `${k} ${v}`)
              .join(' · ') || 'No runs yet.'}
            {runs.last_failure ? ` Last failure: ${runs.last_failure.failure ?? runs.last_failure.state} (${runs.last_failure.stance ?? ''}).` : ''}
          </p>
          <table class="runs">
            <tbody>
              {runs.runs.map((r) => (
                <tr>
                  <td>
                    <time>{when(r.ts)}</time>
                  </td>
                  <td>
                    {r.artifact_id === null ? '—' : <a href={`#/row/${encodeURIComponent(r.artifact_id)}`}>{r.artifact_id.slice(0, 16)}</a>}
                  </td>
                  <td>{r.stance}</td>
                  <td>{r.model_label}</td>
                  <td>
                    {r.state}
                    {'failure' in r && r.failure ? ` (${r.failure})` : ''}
                  </td>
                  <td>{r.cost_tokens} tokens</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {admin && (
        <>
          <h3>Away</h3>
          <p>
            While you are away nothing is promoted and no review clock runs.{' '}
            <button type="button" onClick={() => void act(() => rpc('gv.away', {}), (r) => `Away since ${new Date(r.since).toISOString()}.`).then((r) => setAway(r ?? null))}>
              I am away
            </button>{' '}
            <button type="button" onClick={() => void act(() => rpc('gv.back'), (r) => `Back; away ${r.held_d} days.`).then((r) => setAway(r ?? null))}>
              I am back
            </button>{' '}
            {away && <span>{away.away ? 'Away.' : 'Present.'}</span>}
          </p>
          <h3>Model backend</h3>
          <p>
            <button type="button" onClick={() => void act(() => rpc('gv.backend_check'), () => 'Backend checked.').then((r) => setBackend(r ?? null))}>
              Check the backend
            </button>
          </p>
          {backend && (
            <p class="backend">
              {backend.backend}: {backend.reachable ? 'reachable' : 'not reachable'}, credential {backend.credential}, model {backend.model}
              {backend.words ? ` — ${backend.words}` : ''}
            </p>
          )}
        </>
      )}
      <h3>Your work, 14 days</h3>
      {engagement && (
        <>
          <EngagementChart perDay={engagement.per_day} />
          <p>
            {engagement.signed} signed, {engagement.promoted} promoted, {engagement.rejected} rejected, {engagement.comments} comments, {engagement.deferred} deferred,{' '}
            {engagement.items_deferred_in_bulk} deferred in bulk.
          </p>
        </>
      )}
    </section>
  );
}
