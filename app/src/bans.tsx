import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Person } from './person.js';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';
import { when } from './when.js';

// Bans: who or which sources the write doors turn away, and how many writes they refused.
// Reviewers read the list; an admin also bans (after a dry run says what it would stop) and lifts.

/** A ban and the writers refused, as gv.bans answers them (the verb's own declaration). */
type Ban = VerbAnswer<'gv.bans'>['bans'][number];
type BanKind = Ban['kind'];
type Refused = VerbAnswer<'gv.bans'>['refused'][number];
/** gv.ban's dry run: what the ban would stop. */
type DryRun = Exclude<VerbAnswer<'gv.ban'>, { changed: boolean }>;

/** What a dry run says a ban would stop, in a sentence. */
function dryRunSentence(r: DryRun): string {
  if (r.kind === 'writer') {
    return `${r.subject} has ${r.promoted} promoted and ${r.held} held rows (kept either way), last wrote ${r.last_write_ts === null ? 'never' : when(r.last_write_ts)}, ${r.refused_last_7_days} writes refused in the last 7 days.`;
  }
  const shown = r.sources.length === 0 ? 'no source matches yet' : `${r.sources.length}${r.truncated ? '+' : ''} sources match`;
  return `${r.subject}: ${shown}, ${r.promoted} promoted and ${r.held} held rows (kept either way).`;
}

export function Bans({ admin, onNotice }: { admin: boolean; onNotice: (t: string) => void }) {
  const [bans, setBans] = useState<Ban[] | null>(null);
  const [refused, setRefused] = useState<Refused[]>([]);
  const [truncated, setTruncated] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [kind, setKind] = useState<BanKind>('writer');
  const [dry, setDry] = useState<DryRun | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const load = useCallback(async () => {
    try {
      const r = await rpc('gv.bans', {});
      setBans(r.bans);
      setRefused(r.refused);
      setTruncated(r.truncated);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const act = async <T,>(f: () => Promise<T>, say: (r: T) => string): Promise<T | null> => {
    try {
      const r = await f();
      setError(null);
      // Told once the list is read again, so the notice never stands beside a list that does not show it yet.
      await load();
      onNotice(say(r));
      return r;
    } catch (e) {
      setError(e);
      return null;
    }
  };
  // The fields are read from the form as it is sent, never from a state a render may not have caught up with.
  const fields = () => {
    const f = new FormData(formRef.current!);
    const hours = String(f.get('hours') ?? '').trim();
    return {
      target: { kind: f.get('kind') === 'source' ? ('source' as const) : ('writer' as const), subject: String(f.get('subject') ?? '').trim() },
      reason: String(f.get('reason') ?? ''),
      until: hours === '' ? {} : { until: Date.now() + Number(hours) * 3_600_000 },
    };
  };

  if (bans === null) return error ? <Problem error={error} /> : <p>Loading…</p>;
  return (
    <section aria-label="Bans">
      <h2>Bans</h2>
      <Problem error={error} />
      {admin && (
        <form
          class="filters"
          aria-label="Ban"
          ref={formRef}
          onSubmit={(e) => {
            e.preventDefault();
            const { target, reason, until } = fields();
            void act(
              () => rpc('gv.ban', { ...target, reason, ...until }),
              (r) => ('changed' in r && r.changed ? `Banned ${r.subject}.` : `${r.subject} was already banned so; nothing changed.`),
            ).then((r) => r && setDry(null));
          }}
        >
          <label>
            kind{' '}
            <select name="kind" value={kind} onChange={(e) => (setKind((e.target as HTMLSelectElement).value === 'source' ? 'source' : 'writer'), setDry(null))}>
              <option value="writer">writer</option>
              <option value="source">source</option>
            </select>
          </label>
          <label>
            {kind === 'writer' ? 'identity' : 'source_uri prefix'} <input name="subject" size={40} onInput={() => setDry(null)} />
          </label>
          <label>
            reason <input name="reason" />
          </label>
          <label>
            hours (empty: until lifted) <input name="hours" size={4} inputMode="numeric" />
          </label>
          <button type="button" id="ban-dry-run" onClick={() => void act(() => rpc('gv.ban', { ...fields().target, dry_run: true }), () => 'Dry run: nothing was banned.').then((r) => r && !('changed' in r) && setDry(r))}>
            Dry run
          </button>
          <button type="submit" id="ban-now">
            Ban
          </button>
        </form>
      )}
      {dry && (
        <p class="dry-run" role="status">
          {dryRunSentence(dry)}
        </p>
      )}
      {dry?.kind === 'source' && dry.sources.length > 0 && (
        <ul class="dry-sources">
          {dry.sources.map((s) => (
            <li class="id">{s}</li>
          ))}
        </ul>
      )}
      <h3>Standing bans</h3>
      {bans.length === 0 ? (
        <p class="empty">No ban stands.</p>
      ) : (
        <table class="bans">
          <thead>
            <tr>
              <th>kind</th>
              <th>subject</th>
              <th>reason</th>
              <th>until</th>
              <th>by</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {bans.map((b) => (
              <tr key={`${b.kind} ${b.subject}`} data-subject={b.subject}>
                <td>{b.kind}</td>
                <td class="id">{b.subject}</td>
                <td>{b.reason ?? ''}</td>
                <td>{b.until === null ? 'until lifted' : when(b.until)}</td>
                <td class="id">
                  {b.by ? <Person identity={b.by} /> : 'the gate'}, {when(b.ts)}
                </td>
                <td>
                  {admin && (
                    <button type="button" onClick={() => void act(() => rpc('gv.ban', { kind: b.kind, subject: b.subject, lift: true }), () => `Lifted the ban on ${b.subject}.`)}>
                      Lift
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Writes refused</h3>
      {refused.length === 0 ? (
        <p class="empty">No write was refused by a ban.</p>
      ) : (
        <table class="refused">
          <thead>
            <tr>
              <th>writer</th>
              <th>refused</th>
              <th>last 7 days</th>
              <th>last</th>
            </tr>
          </thead>
          <tbody>
            {refused.map((r) => (
              <tr data-writer={r.writer_identity}>
                <td class="id">
                  <Person identity={r.writer_identity} />
                </td>
                <td>{r.refused}</td>
                <td>{r.refused_last_7_days}</td>
                <td>{when(r.last_ts)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {truncated && <p class="empty">More than shown.</p>}
    </section>
  );
}
