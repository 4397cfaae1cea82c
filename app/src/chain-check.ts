import type { EventCheck, WhyEvent } from './event-check.js';

// The journal is one chain: each event's signed `prev` is the id of the event at the place
// before it (seq - 1), whatever row that event is about. gv.why serves one row's events,
// so the page can check a link only where the row holds both ends: an event whose place
// directly follows another of the row's. Elsewhere the event before it is another row's or
// an internal one, which is not served here: a gap, said as such, never as checked.

export type LinkCheck =
  /** Its signed prev is the id of the row's event at the place before it. */
  | { state: 'linked'; to: number }
  /** The place before it holds an event not served here (another row's, or internal). */
  | { state: 'gap'; before: number }
  /** Its signed place or prev contradicts the row's other events. */
  | { state: 'broken'; why: string }
  /** Its bytes were not verified in the page (withheld or failed): its place and prev are only the gate's word. */
  | { state: 'unchecked' };

/**
 * Each event's link to the chain, by event id. Only an event whose signature the page
 * verified is judged (its seq and prev are then what the deployment signed); the event it
 * links to may be any of the row's, since the signed prev names that one's id.
 */
export function checkLinks(events: readonly WhyEvent[], checks: ReadonlyMap<string, EventCheck>): Map<string, LinkCheck> {
  const bySeq = new Map<number, WhyEvent[]>();
  for (const e of events) bySeq.set(e.seq, [...(bySeq.get(e.seq) ?? []), e]);
  const seqOf = new Map(events.map((e) => [e.event_id, e.seq]));
  const links = new Map<string, LinkCheck>();
  events.forEach((e, i) => {
    if (checks.get(e.event_id)?.state !== 'verified') return links.set(e.event_id, { state: 'unchecked' });
    const listedBefore = events[i - 1];
    if (listedBefore !== undefined && listedBefore.seq >= e.seq) {
      return links.set(e.event_id, { state: 'broken', why: `it is listed after #${listedBefore.seq} though its signed place is #${e.seq}` });
    }
    if ((bySeq.get(e.seq)?.length ?? 0) > 1) return links.set(e.event_id, { state: 'broken', why: `another event is listed at its signed place #${e.seq}` });
    if (e.prev === null) return links.set(e.event_id, { state: 'broken', why: `it names no event before it, though its place is #${e.seq}` });
    const before = bySeq.get(e.seq - 1)?.[0];
    if (before !== undefined) {
      if (e.prev === before.event_id) return links.set(e.event_id, { state: 'linked', to: before.seq });
      return links.set(e.event_id, { state: 'broken', why: `its signed prev is not #${before.seq}, the event at the place before it` });
    }
    const named = seqOf.get(e.prev);
    if (named !== undefined) {
      return links.set(e.event_id, { state: 'broken', why: `its signed prev names #${named}, which is not at the place before it (#${e.seq - 1})` });
    }
    return links.set(e.event_id, { state: 'gap', before: e.seq - 1 });
  });
  return links;
}
