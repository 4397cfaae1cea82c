import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { displayName, Person, useNames } from './person.js';
import { KeyHelp, useKeys, type Key } from './keys.js';
import { useEventTail } from './live.js';
import { Problem } from './problem.js';
import { CommentForm, EvidenceForm, RejectForm } from './reject-form.js';
import { go, rememberQueue, replaceQuery, type Place } from './route.js';
import { rpc } from './rpc.js';
import type { RejectCategory } from '../../src/domain/rejection-reasons.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';

// The review queue: gv.review's waiting rows, oldest first, worked from the keyboard. The
// cursor follows a row's id, not its position, so a refresh that adds or removes rows
// leaves the reviewer where they were.

const FILTERS = ['space', 'workarea', 'kind', 'state', 'blocker', 'trust_class'] as const;

/** One row of gv.review's answer, typed by the verb's own declaration. */
export type ReviewItem = VerbAnswer<'gv.review'>['items'][number];

function matches(item: ReviewItem, f: URLSearchParams): boolean {
  const space = f.get('space');
  const area = f.get('workarea');
  const kind = f.get('kind');
  const blocker = f.get('blocker');
  const state = f.get('state');
  const trust = f.get('trust_class');
  return (
    (!space || item.space === space) &&
    (!area || (item.workarea ?? '').startsWith(area)) &&
    (!kind || (item.kind ?? item.content_type) === kind) &&
    (!state || item.state === state) &&
    (!blocker || item.waits_for?.blocker === blocker) &&
    (!trust || item.trust_class === trust)
  );
}

const duration = (s: number | null | undefined) =>
  s === null || s === undefined ? '—' : s >= 86400 ? `${Math.floor(s / 86400)} d` : s >= 3600 ? `${Math.floor(s / 3600)} h` : `${Math.max(0, Math.floor(s / 60))} min`;

/** How many may sign the row now (gv.review's who_can_sign); a row held by a veto finding no signature clears says so instead. */
const signers = (who: string[]): string => (who.length === 0 ? 'nobody' : `${who.length}`);

/** Who they are, on hover: each by name (src/domain/shown-identity.ts) with the identity beside it. */
const signersByName = (who: string[]): string => who.map((id) => (displayName(id) === id ? id : `${displayName(id)} (${id})`)).join('\n');

const stancesOf = (i: ReviewItem) => i.stances.map((v) => `${v.stance}: ${v.decision ?? v.last_run?.state ?? 'not graded'}`).join(', ');

export function Queue({ place, onNotice }: { place: Place; onNotice: (text: string) => void }) {
  useNames();
  const [answer, setAnswer] = useState<VerbAnswer<'gv.review'> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [cursorId, setCursorId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [asking, setAsking] = useState<null | 'reject' | 'evidence' | 'comment'>(null);
  const [help, setHelp] = useState(false);
  const fromAddress = () => new URLSearchParams([...place.query].filter(([k]) => (FILTERS as readonly string[]).includes(k)));
  const [filters, setFilters] = useState(fromAddress);
  // The address is the queue's state: a filter edited in the address bar applies at once.
  const addressQuery = place.query.toString();
  useEffect(() => setFilters(fromAddress()), [addressQuery]);
  useEffect(() => rememberQueue(filters), [filters]);

  const load = useCallback(async () => {
    try {
      setAnswer(await rpc('gv.review', { cap: 500 }));
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => void load(), [load]);
  useEventTail(() => void load(), {}, asking !== null);

  const items = useMemo(() => (answer?.items ?? []).filter((i) => matches(i, filters)), [answer, filters]);
  const index = Math.max(0, items.findIndex((i) => i.artifact_id === cursorId));
  const current = items[index];
  // Keep the cursor on a real row: when the row under it left, the one now at its place.
  const lastIndex = useRef(0);
  useEffect(() => {
    if (items.length === 0) return;
    if (cursorId === null || !items.some((i) => i.artifact_id === cursorId)) setCursorId(items[Math.min(lastIndex.current, items.length - 1)]!.artifact_id);
    else lastIndex.current = index;
  }, [items, cursorId]);
  useEffect(() => {
    document.querySelector('tr.cursor')?.scrollIntoView({ block: 'nearest' });
  }, [cursorId]);

  const act = async (what: string, f: () => Promise<unknown>) => {
    try {
      await f();
      onNotice(what);
      setError(null);
      await load();
    } catch (e) {
      setError(e);
    }
  };
  const sign = (decision: 'reject' | 'archive', extra: { category?: RejectCategory; reason?: string } = {}) =>
    current && act(`${decision === 'archive' ? 'Archived' : 'Rejected'} ${current.artifact_id}.`, () => rpc('gv.sign', { artifact_id: current.artifact_id, decision, ...extra }));
  const move = (by: number) => items.length > 0 && setCursorId(items[Math.min(items.length - 1, Math.max(0, index + by))]!.artifact_id);
  const open = () => current && go('row', current.artifact_id);

  const keys: Key[] = [
    { key: 'j', does: 'next row', run: () => move(1) },
    { key: 'k', does: 'previous row', run: () => move(-1) },
    { key: 'o', does: 'open the row', run: open },
    { key: 'Enter', does: 'open the row', run: open },
    // An approval counts only once the whole body was served, so approving starts by reading it.
    { key: 'a', does: 'approve: opens the row to read its body, then a again signs', run: () => current && go('row', current.artifact_id, new URLSearchParams({ then: 'approve' })) },
    { key: 'r', does: 'reject (asks the category)', run: () => current && setAsking('reject') },
    {
      key: 'v',
      does: 'send back to its writer for evidence (asks what is missing; a row waiting unflagged for review)',
      run: () => current && (current.state === 'L1_SCANNED' || current.state === 'L2_SCORED') && setAsking('evidence'),
    },
    { key: 'e', does: 'archive', run: () => sign('archive') },
    { key: 'd', does: 'defer: out of the queue until the row moves', run: () => current && act(`Deferred ${current.artifact_id}.`, () => rpc('gv.defer', { artifact_id: current.artifact_id })) },
    { key: 'c', does: 'comment', run: () => current && setAsking('comment') },
    {
      key: 'x',
      does: 'select or unselect the row (for bulk defer)',
      run: () => {
        if (!current) return;
        const next = new Set(selected);
        if (next.has(current.artifact_id)) next.delete(current.artifact_id);
        else next.add(current.artifact_id);
        setSelected(next);
      },
    },
    { key: 'D', does: 'defer the selected rows', run: () => void bulkDefer() },
    { key: '?', does: 'show these keys', run: () => setHelp(!help) },
    { key: 'Escape', does: 'close', run: () => (setHelp(false), setAsking(null)) },
  ];
  useKeys(keys);

  const bulkDefer = async () => {
    if (selected.size === 0) return;
    const ids = [...selected];
    await act(`Deferred ${ids.length} rows.`, () => rpc('gv.defer', { artifact_ids: ids }));
    setSelected(new Set());
  };
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(filters);
    if (value === '') next.delete(name);
    else next.set(name, value);
    setFilters(next);
    replaceQuery(next);
  };

  if (answer === null) return error ? <Problem error={error} /> : <p>Loading the queue…</p>;
  const distinct = (f: (i: ReviewItem) => string | undefined) => [...new Set(answer.items.map(f).filter((v): v is string => !!v))].sort();

  return (
    <section aria-label="Review queue">
      <h2>
        Review queue <small>{items.length} of {answer.total_waiting} waiting{answer.held_back > 0 ? `, ${answer.held_back} deferred` : ''}</small>
      </h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {(
          [
            ['space', distinct((i) => i.space)],
            ['kind', distinct((i) => i.kind ?? i.content_type)],
            ['state', distinct((i) => i.state)],
            ['blocker', distinct((i) => i.waits_for?.blocker)],
            ['trust_class', distinct((i) => i.trust_class)],
          ] as const
        ).map(([name, values]) => (
          <label>
            {name.replace('_', ' ')}{' '}
            <select name={name} value={filters.get(name) ?? ''} onChange={(e) => setFilter(name, (e.target as HTMLSelectElement).value)}>
              <option value="">any</option>
              {[...new Set([...values, ...(filters.get(name) ? [filters.get(name)!] : [])])].map((v) => (
                <option value={v}>{v}</option>
              ))}
            </select>
          </label>
        ))}
        <label>
          work area{' '}
          <input name="workarea" value={filters.get('workarea') ?? ''} placeholder="prefix" onInput={(e) => setFilter('workarea', (e.target as HTMLInputElement).value)} />
        </label>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulkDefer()}>
          Defer selected ({selected.size})
        </button>
        <button type="button" class="link" onClick={() => setHelp(!help)}>
          Keys (?)
        </button>
      </form>
      <Problem error={error} />
      {help && <KeyHelp keys={keys} onClose={() => setHelp(false)} />}
      {asking === 'reject' && current && (
        <RejectForm
          onCancel={() => setAsking(null)}
          onReject={(category, reason) => {
            setAsking(null);
            void sign('reject', { category, ...(reason ? { reason } : {}) });
          }}
        />
      )}
      {asking === 'evidence' && current && (
        <EvidenceForm
          onCancel={() => setAsking(null)}
          onSend={(reason) => {
            setAsking(null);
            void act(`Sent ${current.artifact_id} back to its writer for evidence.`, () => rpc('gv.request_evidence', { artifact_id: current.artifact_id, reason }));
          }}
        />
      )}
      {asking === 'comment' && current && (
        <CommentForm
          onCancel={() => setAsking(null)}
          onPost={(body, kind) => {
            setAsking(null);
            void act(`Commented on ${current.artifact_id}.`, () => rpc('gv.comment', { artifact_id: current.artifact_id, body, kind }));
          }}
        />
      )}
      {items.length === 0 ? (
        <p class="empty">Nothing waits for you here.</p>
      ) : (
        <table class="queue">
          <thead>
            <tr>
              <th aria-label="selected" />
              <th>row</th>
              <th>state · waits for</th>
              <th>kind · class</th>
              <th>space · area</th>
              <th>producer · writer</th>
              <th>findings</th>
              <th>verdicts</th>
              <th>files</th>
              <th>expires</th>
              <th>signers</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr
                key={i.artifact_id}
                data-id={i.artifact_id}
                class={`${i.artifact_id === current?.artifact_id ? 'cursor' : ''} ${selected.has(i.artifact_id) ? 'selected' : ''}`}
                onClick={() => setCursorId(i.artifact_id)}
                onDblClick={() => go('row', i.artifact_id)}
              >
                <td>{selected.has(i.artifact_id) ? '✓' : ''}</td>
                <td>
                  <a href={`#/row/${encodeURIComponent(i.artifact_id)}`} class="id">
                    {i.artifact_id.slice(0, 16)}
                  </a>
                  {i.self_authored && <span class="tag">yours</span>}
                  <div class="preview">{(i.preview ?? '').slice(0, 120)}</div>
                </td>
                <td>
                  {i.state}
                  <div class="waits" title={i.waits_for?.code}>
                    {i.waits_for ? `${i.waits_for.blocker}: ${i.waits_for.words ?? i.waits_for.code ?? ''}` : ''}
                  </div>
                  {i.evidence_request && (
                    <div class="asks">
                      {i.evidence_request.answered === null ? 'evidence asked: ' : 'evidence added for: '}
                      <q>{i.evidence_request.asks}</q>
                    </div>
                  )}
                </td>
                <td>
                  {i.kind ?? i.content_type} · {i.trust_class}
                </td>
                <td>
                  {i.space} · {i.workarea ?? '—'}
                </td>
                <td>
                  {i.producer ? `${i.producer.name} (${i.producer.kind})` : '—'}
                  <div class="writer">
                    <Person identity={i.writer_identity} />
                  </div>
                </td>
                <td>{i.findings.map((f) => `${f.kind} (${f.severity})`).join(', ') || '—'}</td>
                <td>{stancesOf(i) || '—'}</td>
                <td>{i.attachments.length}</td>
                <td>{duration(i.expires_in_s)}</td>
                <td class="who-can-sign" title={signersByName(i.who_can_sign)}>{i.waits_for?.code === 'veto_finding' ? 'nobody: a veto finding' : signers(i.who_can_sign)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {answer.held_steering.length > 0 && (
        <>
          <h3>Held steering</h3>
          <ul class="steering">
            {answer.held_steering.map((s) => (
              <li>
                <a href={`#/row/${encodeURIComponent(s.artifact_id)}`}>{s.artifact_id.slice(0, 16)}</a> {s.space} · {s.workarea} — {(s.preview ?? '').slice(0, 120)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
