import { useEffect, useState } from 'preact/hooks';
import { checkLinks, type LinkCheck } from './chain-check.js';
import { checkEvent, type EventCheck, type WhyEvent } from './event-check.js';
import { when } from './when.js';

// A row's events, each checked in this page against the deployment id /identity names, and
// the links between those that are neighbours in the journal. A failure is said loudly
// above the list: the history shown is not what the deployment signed.

export function EventHistory({ events, deploymentId, onFailures }: { events: WhyEvent[]; deploymentId: string; onFailures?: (n: number) => void }) {
  const [checks, setChecks] = useState<Map<string, EventCheck>>(new Map());
  useEffect(() => {
    let current = true;
    void Promise.all(events.map(async (e) => [e.event_id, await checkEvent(deploymentId, e)] as const)).then((done) => {
      if (!current) return;
      const checked = new Map(done);
      setChecks(checked);
      const broken = [...checkLinks(events, checked).values()].filter((l) => l.state === 'broken').length;
      onFailures?.(done.filter(([, c]) => c.state === 'failed').length + broken);
    });
    return () => {
      current = false;
    };
  }, [events, deploymentId]);

  const failed = events.filter((e) => checks.get(e.event_id)?.state === 'failed');
  const verified = events.filter((e) => checks.get(e.event_id)?.state === 'verified').length;
  const done = checks.size === events.length && events.length > 0;
  const links = done ? checkLinks(events, checks) : new Map<string, LinkCheck>();
  const broken = events.filter((e) => links.get(e.event_id)?.state === 'broken');
  const linked = [...links.values()].filter((l) => l.state === 'linked').length;
  const gaps = [...links.values()].filter((l) => l.state === 'gap').length;
  return (
    <>
      <h3>Events</h3>
      {failed.length > 0 && (
        <p class="problem sig-alarm" role="alert">
          {failed.length === 1 ? 'One event' : `${failed.length} events`} of this row failed the signature check in your browser (
          {failed.map((e) => `#${e.seq} ${e.type}`).join(', ')}): what the gate shows here is not what the deployment signed.
        </p>
      )}
      {broken.length > 0 && (
        <p class="problem chain-alarm" role="alert">
          The chain between this row's events is broken at {broken.map((e) => `#${e.seq} ${e.type}`).join(', ')}: the places the deployment signed do not fit
          together as they are shown.
        </p>
      )}
      {done && (
        <>
          <p class="hint sig-summary">
            {verified} of {events.length} signatures verified in your browser against deployment {deploymentId}.
          </p>
          <p class="hint chain-summary">
            {linked === 1 ? '1 link' : `${linked} links`} to the event just before checked in your browser;{' '}
            {gaps === 1 ? '1 event follows' : `${gaps} events follow`} an event not served here (another row's or an internal one), so that link is not checkable here.
          </p>
        </>
      )}
      <ol class="events">
        {events.map((e) => {
          const check = checks.get(e.event_id);
          const link = links.get(e.event_id);
          return (
            <li
              data-event={e.event_id}
              data-check={check?.state ?? 'checking'}
              data-link={link?.state ?? 'checking'}
              class={check?.state === 'failed' || link?.state === 'broken' ? 'sig-failed' : ''}
            >
              <span class="seq">#{e.seq}</span> <span class="type">{e.type}</span> {e.enters ? `→ ${String(e.enters)}` : ''} <span class="by">{e.by ?? 'the deployment'}</span>{' '}
              <time>{when(e.ts)}</time> <Said check={check} gateSays={e['verified'] === true} /> <Linked link={link} />
            </li>
          );
        })}
      </ol>
    </>
  );
}

function Linked({ link }: { link: LinkCheck | undefined }) {
  if (link === undefined) return null;
  if (link.state === 'linked') return <span class="link link-ok">· follows #{link.to} directly (link checked in your browser)</span>;
  if (link.state === 'gap') return <span class="link link-gap">· follows #{link.before}, not served here: link not checkable here</span>;
  if (link.state === 'broken') return <strong class="link sig-bad">✗ CHAIN BROKEN: {link.why}</strong>;
  return <span class="link link-gap">· link not checked (its bytes were not verified)</span>;
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
