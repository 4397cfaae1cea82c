import { useEffect, useState } from 'preact/hooks';
import { Person } from './person.js';
import { whatHappened } from './event-words.js';
import { checkLinks, type LinkCheck } from './chain-check.js';
import { checkEvent, type EventCheck, type WhyEvent } from './event-check.js';
import { checkInclusions, type InclusionCheck } from './inclusion-check.js';
import { provenKeys } from '@gate/client/proofs';
import { when } from './when.js';

// A row's events, each checked in this page against the deployment id /identity names, the
// links between those that are neighbours in the journal, and each one's inclusion proof in
// the checkpoint gv.why signs beside them. A failure is said loudly
// above the list: the history shown is not what the deployment signed.

export function EventHistory({
  events,
  checkpoint,
  keyRotations,
  deploymentId,
  onFailures,
}: {
  events: WhyEvent[];
  /** gv.why's signed checkpoint, in which each event's inclusion proof is checked. */
  checkpoint: string | undefined;
  /** gv.why's key_rotations: each event is checked against the key signing at its seq, proven from the deployment id. */
  keyRotations: unknown;
  deploymentId: string;
  onFailures?: (n: number) => void;
}) {
  const [checks, setChecks] = useState<Map<string, EventCheck>>(new Map());
  const [inclusions, setInclusions] = useState<Map<string, InclusionCheck>>(new Map());
  useEffect(() => {
    let current = true;
    void provenKeys(deploymentId, keyRotations)
      .then(
        (keys) =>
          Promise.all([
            Promise.all(events.map(async (e) => [e.event_id, await checkEvent(keys.keyAt(e.seq), e)] as const)),
            checkInclusions(deploymentId, checkpoint, events, keys.current),
          ]),
        (e: unknown) => {
          // Rotations that do not hold from the deployment id: no signature here can be trusted.
          const why = `the key rotations the gate served do not hold (${e instanceof Error ? e.message : String(e)})`;
          return [events.map((ev) => [ev.event_id, { state: 'failed', why }] as const), new Map(events.map((ev) => [ev.event_id, { state: 'failed', why } as InclusionCheck]))] as const;
        },
      )
      .then(([done, included]) => {
        if (!current) return;
        const checked = new Map(done);
        setChecks(checked);
        setInclusions(included);
        const broken = [...checkLinks(events, checked).values()].filter((l) => l.state === 'broken').length;
        const unproven = [...included.values()].filter((i) => i.state === 'failed').length;
        onFailures?.(done.filter(([, c]) => c.state === 'failed').length + broken + unproven);
      });
    return () => {
      current = false;
    };
  }, [events, checkpoint, keyRotations, deploymentId]);

  const failed = events.filter((e) => checks.get(e.event_id)?.state === 'failed');
  const verified = events.filter((e) => checks.get(e.event_id)?.state === 'verified').length;
  const done = checks.size === events.length && events.length > 0;
  const links = done ? checkLinks(events, checks) : new Map<string, LinkCheck>();
  const broken = events.filter((e) => links.get(e.event_id)?.state === 'broken');
  const linked = [...links.values()].filter((l) => l.state === 'linked').length;
  const gaps = [...links.values()].filter((l) => l.state === 'gap').length;
  const unproven = events.filter((e) => inclusions.get(e.event_id)?.state === 'failed');
  const included = events.filter((e) => inclusions.get(e.event_id)?.state === 'included').length;
  const size = [...inclusions.values()].find((i) => i.state === 'included')?.size;
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
      {done && unproven.length > 0 && (
        <p class="problem proof-alarm" role="alert">
          {unproven.length === 1 ? 'One event' : `${unproven.length} events`} of this row failed the inclusion check in your browser (
          {unproven.map((e) => `#${e.seq} ${e.type}`).join(', ')}): the gate does not prove it is in the log the deployment signed.
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
          <p class="hint proof-summary">
            {included} of {events.length} events proven in your browser to be in the signed log
            {size === undefined ? '' : ` (checkpoint ${size}, signed by deployment ${deploymentId})`}.
          </p>
        </>
      )}
      <ol class="events">
        {events.map((e) => {
          const check = checks.get(e.event_id);
          const link = links.get(e.event_id);
          const inclusion = done ? inclusions.get(e.event_id) : undefined;
          return (
            <li
              data-event={e.event_id}
              data-check={check?.state ?? 'checking'}
              data-link={link?.state ?? 'checking'}
              data-inclusion={inclusion?.state ?? 'checking'}
              class={check?.state === 'failed' || link?.state === 'broken' || inclusion?.state === 'failed' ? 'sig-failed' : ''}
            >
              <span class="seq">#{e.seq}</span> <span class="type">{e.type}</span> <EventWordsIfOther e={e} />{e.enters ? `→ ${String(e.enters)}` : ''} <span class="by">
                <Person identity={e.by} />
              </span>{' '}
              <time>{when(e.ts)}</time> <Said check={check} gateSays={e['verified'] === true} /> <Linked link={link} /> <Included inclusion={inclusion} />
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

function Included({ inclusion }: { inclusion: InclusionCheck | undefined }) {
  if (inclusion === undefined) return null;
  if (inclusion.state === 'included') return <span class="proof proof-ok">· in the signed log (checkpoint {inclusion.size})</span>;
  return <strong class="proof sig-bad">✗ NOT IN THE SIGNED LOG: {inclusion.why}</strong>;
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

/** The event in words when they say more than its type (a ratify that asked for evidence). */
function EventWordsIfOther({ e }: { e: WhyEvent }) {
  const words = whatHappened(e);
  if (words === e.type) return null;
  return (
    <>
      <span class="what hint">({words})</span>{' '}
    </>
  );
}
