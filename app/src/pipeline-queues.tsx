import { useState } from 'preact/hooks';
import { useWhileShown } from './live.js';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';

// How deep the quarantine is and what waits in each pipeline stage, read again every few
// seconds while the operator screen is shown (the gate pushes nothing).

export const HELD = ['L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED', 'NEEDS_EVIDENCE', 'L3_RATIFIED'];
export const QUEUES_POLL_MS = 2000;

/** gv.queues' answer, typed by the verb's own declaration. */
type Queues = VerbAnswer<'gv.queues'>;

/** A wait as a person reads it. */
export const waited = (ms: number | null): string => {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
};

export function PipelineQueues() {
  const [queues, setQueues] = useState<Queues | null>(null);
  const [depth, setDepth] = useState<Record<string, number> | null>(null);
  const [error, setError] = useState<unknown>(null);
  useWhileShown(async () => {
    try {
      const [q, inv] = await Promise.all([rpc('gv.queues', {}), rpc('gv.inventory', { states: HELD, limit: 1 })]);
      setQueues(q);
      setDepth(inv.counts);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, QUEUES_POLL_MS);

  return (
    <>
      <h3>Quarantine</h3>
      <Problem error={error} />
      {depth === null || queues === null ? (
        !error && <p>Loading…</p>
      ) : (
        <>
          <p class="depth">
            {HELD.map((s) => `${s} ${depth[s] ?? 0}`).join(' · ')} — {HELD.reduce((n, s) => n + (depth[s] ?? 0), 0)} waiting for review in all.
          </p>
          <p class="quarantine-bound">
            {queues.quarantine.held} held before review (L0, L1, L1B) of at most {queues.quarantine.max_depth}; room for {queues.quarantine.room} more before an ingest
            is refused.
          </p>
          <h3>Pipeline queues</h3>
          <table class="queues" aria-label="Pipeline queues">
            <thead>
              <tr>
                <th>stage</th>
                <th>queued</th>
                <th>running</th>
                <th>threads</th>
                <th>bound (room)</th>
                <th>oldest wait</th>
              </tr>
            </thead>
            <tbody>
              {queues.stages.map((s) => (
                <tr data-stage={s.stage} class={s.queued > 0 ? 'busy' : ''}>
                  <td>
                    {s.stage} <span class="hint">({s.unit})</span>
                  </td>
                  <td class="queued">{s.queued}</td>
                  <td class="running">{s.running}</td>
                  <td>{s.threads}</td>
                  <td class="bound">{s.bound === null ? 'by its callers' : `${s.bound} (${s.room})`}</td>
                  <td class="oldest">{waited(s.oldest_wait_ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <RescanProgress pass={queues.promoted_rescan} />
        </>
      )}
    </>
  );
}

/** The background rescan of promoted rows an older scanner saw: how far it got since the gate started. */
function RescanProgress({ pass }: { pass: Queues['promoted_rescan'] }) {
  const doing = pass.per_minute === 0 ? 'switched off (scan.promoted_rescan_per_minute = 0)' : pass.walking ? `scanning, at most ${pass.per_minute} rows a minute` : 'nothing left to scan';
  return (
    <p class="promoted-rescan">
      Promoted rows scanned again by {pass.scanner}: {doing}. Since the start: {pass.examined} scanned, {pass.unchanged} unchanged, {pass.changed} with a new
      finding kept served, {pass.held} held for a person, {pass.skipped} not scanned.
    </p>
  );
}
