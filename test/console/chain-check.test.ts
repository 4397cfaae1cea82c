import { createHash, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { checkEvent, type EventCheck, type WhyEvent } from '../../app/src/event-check.js';
import { checkLinks } from '../../app/src/chain-check.js';
import { useGate } from '../harness/use-gate.js';

// The console's check of the links between a row's events (app/src/chain-check.ts, run by
// the row screen in the browser) against a real gate's gv.why answer, and against histories
// the deployment's own key re-signed: every signature holds there, so only the links can
// tell that the places do not fit together.

const { gate } = useGate({ kind: 'unit' });

let events: WhyEvent[];

beforeAll(async () => {
  const agent = await gate.key('agent');
  const reviewer = await gate.key('reviewer');
  const row = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('links'), workarea: 'tests/links', kind: 'memory', source_uri: 'test://links' })).result;
  await gate.readBody(reviewer.key, row.artifact_id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id })).result?.state).toBe('ACTIVE');
  expect((await gate.rpc(agent.key, 'gv.rank', { artifact_id: row.artifact_id, weight: 2 })).error).toBeUndefined();
  events = (await gate.rpc(reviewer.key, 'gv.why', { artifact_id: row.artifact_id })).result.events;
});

const byType = (type: string, list = events) => structuredClone(list.find((e) => e.type === type)!);

/** The page's two checks, in the order the row screen runs them. */
async function linksOf(list: WhyEvent[]) {
  const checks = new Map<string, EventCheck>();
  for (const e of list) checks.set(e.event_id, await checkEvent(gate.deploymentId, e));
  return { checks, links: checkLinks(list, checks) };
}

/** The event as the deployment's own key would sign it with `changes` to its envelope: a history rewritten by whoever holds the key. */
function resigned(e: WhyEvent, changes: { seq?: number; prev?: string | null }): WhyEvent {
  const envelope = { ...JSON.parse(e.signed!), ...changes };
  const signed = canonicalize(envelope)!;
  const key = createPrivateKey(readFileSync(join(gate.home, 'deployment.key')));
  return {
    ...e,
    ...changes,
    signed,
    event_id: createHash('sha256').update(signed).digest('hex'),
    sig: sign(null, Buffer.from(signed), key).toString('base64url'),
  };
}

describe("the console's check of the links between a row's events", () => {
  it("links each event to the row's event at the place before it; the rest follow an event not served here", async () => {
    const { checks, links } = await linksOf(events);
    for (const e of events) {
      expect(checks.get(e.event_id), e.type).toEqual({ state: 'verified' });
      const before = events.find((o) => o.seq === e.seq - 1);
      expect(links.get(e.event_id), e.type).toEqual(before === undefined ? { state: 'gap', before: e.seq - 1 } : { state: 'linked', to: before.seq });
    }
    // A scan is appended right after its ingest: that link is always the row's own to check.
    expect(links.get(byType('scan').event_id)).toEqual({ state: 'linked', to: byType('ingest').seq });
    expect(links.get(byType('ingest').event_id)).toEqual({ state: 'gap', before: byType('ingest').seq - 1 });
  });

  it('a prev re-signed to another id: the signature holds, the link to the event before it is broken', async () => {
    const scan = resigned(byType('scan'), { prev: '0'.repeat(64) });
    const list = events.map((e) => (e.type === 'scan' ? scan : e));
    const { checks, links } = await linksOf(list);
    expect(checks.get(scan.event_id)).toEqual({ state: 'verified' });
    expect(links.get(scan.event_id)).toEqual({ state: 'broken', why: `its signed prev is not #${scan.seq - 1}, the event at the place before it` });
  });

  it("a prev naming one of the row's events that is not at the place before it is broken", async () => {
    const last = events[events.length - 1]!;
    const ingest = byType('ingest');
    const rewritten = resigned(last, { seq: last.seq + 5, prev: ingest.event_id });
    const { links } = await linksOf([...events.slice(0, -1), rewritten]);
    expect(links.get(rewritten.event_id)).toEqual({ state: 'broken', why: `its signed prev names #${ingest.seq}, which is not at the place before it (#${rewritten.seq - 1})` });
  });

  it('two signed events at one place, events listed out of their signed order, and an event naming no prev are broken', async () => {
    const scan = byType('scan');
    const twin = resigned(byType('promote'), { seq: scan.seq, prev: scan.prev });
    const forked = await linksOf([byType('ingest'), scan, twin]);
    expect(forked.links.get(twin.event_id)).toMatchObject({ state: 'broken', why: expect.stringContaining(`#${scan.seq}`) });

    const reordered = await linksOf([byType('ingest'), byType('promote'), scan]);
    expect(reordered.links.get(scan.event_id)).toEqual({ state: 'broken', why: `it is listed after #${byType('promote').seq} though its signed place is #${scan.seq}` });

    const orphan = resigned(byType('promote'), { prev: null });
    expect((await linksOf([orphan])).links.get(orphan.event_id)).toEqual({ state: 'broken', why: `it names no event before it, though its place is #${orphan.seq}` });
  });

  it("an event whose bytes are withheld is not judged, and the event after it may still link to its id", async () => {
    const ingest = { ...byType('ingest'), signed: null, withheld: ['findings'] };
    const { checks, links } = await linksOf([ingest, byType('scan')]);
    expect(checks.get(ingest.event_id)).toEqual({ state: 'withheld', fields: ['findings'] });
    expect(links.get(ingest.event_id)).toEqual({ state: 'unchecked' });
    expect(links.get(byType('scan').event_id)).toEqual({ state: 'linked', to: ingest.seq });
  });
});
