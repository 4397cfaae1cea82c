import { useEffect, useState } from 'preact/hooks';
import { checkEvent, type EventCheck, type WhyEvent } from './event-check.js';
import { when } from './when.js';

// A row's events, each checked in this page against the deployment id /identity names. A
// failure is said loudly above the list: the history shown is not what the deployment signed.

export function EventHistory({ events, deploymentId, onFailures }: { events: WhyEvent[]; deploymentId: string; onFailures?: (n: number) => void }) {
  const [checks, setChecks] = useState<Map<string, EventCheck>>(new Map());
  useEffect(() => {
    let current = true;
    void Promise.all(events.map(async (e) => [e.event_id, await checkEvent(deploymentId, e)] as const)).then((done) => {
      if (!current) return;
      setChecks(new Map(done));
      onFailures?.(done.filter(([, c]) => c.state === 'failed').length);
    });
    return () => {
      current = false;
    };
  }, [events, deploymentId]);

  const failed = events.filter((e) => checks.get(e.event_id)?.state === 'failed');
  const verified = events.filter((e) => checks.get(e.event_id)?.state === 'verified').length;
  return (
    <>
      <h3>Events</h3>
      {failed.length > 0 && (
        <p class="problem sig-alarm" role="alert">
          {failed.length === 1 ? 'One event' : `${failed.length} events`} of this row failed the signature check in your browser (
          {failed.map((e) => `#${e.seq} ${e.type}`).join(', ')}): what the gate shows here is not what the deployment signed.
        </p>
      )}
      {checks.size === events.length && events.length > 0 && (
        <p class="hint sig-summary">
          {verified} of {events.length} signatures verified in your browser against deployment {deploymentId}.
        </p>
      )}
      <ol class="events">
        {events.map((e) => {
          const check = checks.get(e.event_id);
          return (
            <li data-event={e.event_id} data-check={check?.state ?? 'checking'} class={check?.state === 'failed' ? 'sig-failed' : ''}>
              <span class="type">{e.type}</span> {e.enters ? `→ ${String(e.enters)}` : ''} <span class="by">{e.by ?? 'the deployment'}</span> <time>{when(e.ts)}</time>{' '}
              <Said check={check} gateSays={e['verified'] === true} />
            </li>
          );
        })}
      </ol>
    </>
  );
}

function Said({ check, gateSays }: { check: EventCheck | undefined; gateSays: boolean }) {
  if (check === undefined) return <span class="sig">checking the signature…</span>;
  if (check.state === 'verified') return <span class="sig sig-ok">✓ signature verified in your browser</span>;
  if (check.state === 'failed') return <strong class="sig sig-bad">✗ SIGNATURE CHECK FAILED: {check.why}</strong>;
  return (
    <span class="sig sig-withheld" title={`withheld: ${check.fields.join(', ')}`}>
      not checkable here: it holds {check.fields.join(', ')}, which you are not served (the gate reports its signature {gateSays ? 'holds' : 'does not hold'})
    </span>
  );
}
