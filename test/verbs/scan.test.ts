import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';
import { leftBehind as leftBehindOn, type OlderScanFinding } from '../harness/older-scan.js';

const TOKEN = 'ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W';

const { gate: server, keys: { reviewer, agent } } = useGate({
  kind: 'in-process',
  settings: { 'spaces.main_policy': 'auto', 'review.quorum_profile': 'solo-reviewer' },
  keys: { reviewer: 'reviewer', agent: 'agent' },
});

type Finding = OlderScanFinding;

/** A row as an older build or a crash left it (test/harness/older-scan.ts). */
const leftBehind = (text: string, options: { contentType?: string; scan?: { enters: string; findings: Finding[] } } = {}) => leftBehindOn(server.gate, text, options);

const status = async (id: string) => (await server.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result;
const scanEvents = async (id: string) =>
  ((await server.rpc(reviewer.key, 'gv.why', { artifact_id: id })).result.events as Array<{ type: string; by: string | null; findings_count?: number }>).filter(
    (e) => e.type === 'scan' || e.type === 'record',
  );

describe('gv.scan_pending', () => {
  it('scans rows left in L0_RAW, `limit` at a time, and says when more wait', async () => {
    const first = await leftBehind(uniqueText('raw one'));
    const second = await leftBehind(`${uniqueText('raw two')} ${TOKEN}`);
    const evidence = await leftBehind(JSON.stringify({ step: uniqueText('raw event') }), { contentType: 'event' });
    expect((await status(first)).state).toBe('L0_RAW');
    const page = (await server.rpc(reviewer.key, 'gv.scan_pending', { limit: 2 })).result;
    expect(page).toMatchObject({ examined: 2, raw: 2, outdated: 0, scanned: 2, unchanged: 0, flagged: 1, truncated: true });
    expect(page.scanner).toMatch(/^gate-scan\/\d+ /);
    expect((await status(first)).state).toBe('L1_SCANNED');
    expect(await status(second)).toMatchObject({ state: 'L1B_FLAGGED', findings_count: 1 });
    const rest = (await server.rpc(reviewer.key, 'gv.scan_pending', {})).result;
    expect(rest).toMatchObject({ examined: 1, raw: 1, scanned: 1, truncated: false });
    // A recorded class is recorded, never held.
    expect((await status(evidence)).state).toBe('RECORDED');
    expect((await scanEvents(evidence)).map((e) => e.type)).toEqual(['record']);
    // The scan events are signed by the caller who asked.
    expect((await scanEvents(first))[0]!.by).toMatch(/^key:/);
    expect((await server.rpc(reviewer.key, 'gv.scan_pending', {})).result).toMatchObject({ examined: 0, truncated: false });
  });

  it('scans again rows in review an older scanner saw, once per start when nothing differs', async () => {
    const missed = await leftBehind(`${uniqueText('missed')} ${TOKEN}`, { scan: { enters: 'L1_SCANNED', findings: [] } });
    const same = await leftBehind(uniqueText('same either way'), { scan: { enters: 'L1_SCANNED', findings: [] } });
    const answer = (await server.rpc(reviewer.key, 'gv.scan_pending', {})).result;
    expect(answer).toMatchObject({ examined: 2, raw: 0, outdated: 2, scanned: 1, unchanged: 1, flagged: 1 });
    expect((await status(missed)).state).toBe('L1B_FLAGGED');
    expect((await status(same)).state).toBe('L1_SCANNED');
    expect(await scanEvents(same)).toHaveLength(1);
    expect((await server.rpc(reviewer.key, 'gv.scan_pending', {})).result.examined).toBe(0);
  });

  it('is a reviewer verb, and limit is 1 to 10,000', async () => {
    expect((await server.rpc(agent.key, 'gv.scan_pending', {})).error?.data).toEqual({ required: 'reviewer', role: 'agent' });
    for (const limit of [0, 10_001, 1.5]) expect((await server.rpc(reviewer.key, 'gv.scan_pending', { limit })).error?.data?.field).toBe('limit');
  });
});

describe('gv.scan', () => {
  it('a clean row scanned again gives the same result: nothing is journaled', async () => {
    const made = await server.rpc(agent.key, 'gv.ingest', { content: uniqueText('clean'), workarea: 'scan/a', kind: 'memory', source_uri: 'test://scan' });
    const id = made.result.artifact_id;
    const answer = (await server.rpc(reviewer.key, 'gv.scan', { artifact_id: id })).result;
    expect(answer).toMatchObject({ artifact_id: id, state: 'L1_SCANNED', changed: false, findings_count: 0, added: [], not_found_again: 0 });
    expect(answer).not.toHaveProperty('event_id');
    expect(await scanEvents(id)).toHaveLength(1);
  });

  it('a finding the standing scan missed is journaled beside the standing ones, and holds a row in review', async () => {
    const id = await leftBehind(`${uniqueText('a token')} ${TOKEN}`, { scan: { enters: 'L1_SCANNED', findings: [] } });
    const waitingSince = (await server.rpc(reviewer.key, 'gv.review', { cap: 500 })).result.items.find((i: { artifact_id: string }) => i.artifact_id === id).waiting_since;
    const answer = (await server.rpc(reviewer.key, 'gv.scan', { artifact_id: id.slice(7) })).result;
    expect(answer).toMatchObject({ state: 'L1B_FLAGGED', changed: true, findings_count: 1, added: [{ kind: 'secret.github-token', severity: 'veto' }] });
    expect(answer.event_id).toMatch(/^[0-9a-f]{64}$/);
    const events = await scanEvents(id);
    expect(events.map((e) => [e.findings_count, e.by])).toEqual([[0, 'key:olderbuild'], [1, expect.stringMatching(/^key:/)]]);
    // The masked body masks the new finding; the review clock did not restart.
    const page = (await server.rpc(reviewer.key, 'gv.node', { artifact_id: id, body: true })).result;
    expect(page.masked_body).not.toContain('TestOnlyNotARealToken');
    const item = (await server.rpc(reviewer.key, 'gv.review', { cap: 500 })).result.items.find((i: { artifact_id: string }) => i.artifact_id === id);
    expect(item.waiting_since).toBe(waitingSince);
    expect(item.findings.map((f: { kind: string }) => f.kind)).toEqual(['secret.github-token']);
    // Scanned again, the same result: nothing more.
    expect((await server.rpc(reviewer.key, 'gv.scan', { artifact_id: id })).result).toMatchObject({ changed: false, findings_count: 1 });
  });

  it('never clears a finding without a person: one the scanner no longer makes stands, and the row stays held', async () => {
    const text = uniqueText('an old false alarm');
    const stale: Finding = { kind: 'injection.override', severity: 'high', detail: 'an older rule', start: 0, end: 5, excerpt: 'an…(3 more)' };
    const id = await leftBehind(text, { scan: { enters: 'L1B_FLAGGED', findings: [stale] } });
    const answer = (await server.rpc(reviewer.key, 'gv.scan', { artifact_id: id })).result;
    expect(answer).toMatchObject({ state: 'L1B_FLAGGED', changed: false, findings_count: 1, added: [], not_found_again: 1 });
    expect(await status(id)).toMatchObject({ state: 'L1B_FLAGGED', findings_count: 1 });
    expect(await scanEvents(id)).toHaveLength(1);
  });

  it('a promoted row keeps its state on a new medium finding (recorded; a reviewer decides), and leaves its readers on a high one', async () => {
    const promoted = async (text: string) => {
      const id = await leftBehind(text, { scan: { enters: 'L1_SCANNED', findings: [] } });
      let offset: number | null = 0;
      while (offset !== null) {
        const r = (await server.rpc(reviewer.key, 'gv.node', { artifact_id: id, body: true, ...(offset ? { offset } : {}) })).result;
        offset = r.masked_next_offset ?? null;
      }
      expect((await server.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
      return id;
    };
    const medium = await promoted(`${uniqueText('promoted with a cut token')} ghp_abc123def456ghi789`);
    expect((await server.rpc(reviewer.key, 'gv.scan', { artifact_id: medium })).result).toMatchObject({ state: 'ACTIVE', changed: true, findings_count: 1 });
    expect(await status(medium)).toMatchObject({ state: 'ACTIVE', findings_count: 1 });
    const high = await promoted(`${uniqueText('promoted with a token')} ${TOKEN}`);
    const answer = (await server.rpc(reviewer.key, 'gv.scan', { artifact_id: high })).result;
    expect(answer).toMatchObject({ state: 'L1B_FLAGGED', changed: true, findings_count: 1, added: [{ kind: 'secret.github-token', severity: 'veto' }] });
    expect(await status(high)).toMatchObject({ state: 'L1B_FLAGGED', findings_count: 1 });
  });

  it('the views replayed from the journal equal the live ones after every rescan above', async () => {
    const rebuilt = await server.socket('gv.rebuild', {});
    expect(rebuilt.error).toBeUndefined();
    expect(rebuilt.result.equal).toBe(true);
  });

  it('refuses below reviewer naming both roles, and an unknown id per rule U', async () => {
    expect((await server.rpc(agent.key, 'gv.scan', { artifact_id: 'a'.repeat(64) })).error?.data).toEqual({ required: 'reviewer', role: 'agent' });
    expect((await server.rpc(reviewer.key, 'gv.scan', { artifact_id: 'a'.repeat(64) })).error).toEqual({ code: -32602, message: `unknown artifact: sha256:aaaaaaaaa` });
  });
});

describe('the start of gate serve', () => {
  // Rows a crash and an older build left, then the in-process gate stopped: `gate serve` starts on its home.
  let raw: string;
  let missed: string;
  beforeAll(async () => {
    raw = await leftBehind(uniqueText('left at a crash'));
    missed = await leftBehind(`${uniqueText('missed before an upgrade')} ${TOKEN}`, { scan: { enters: 'L1_SCANNED', findings: [] } });
    await server.stop();
  });
  // serve() again on that home, as gate serve starts: it scans what it owes beside serving.
  const { gate } = useGate({ kind: 'in-process', home: () => server.home });

  it('scans what the scanner owes: rows left in L0_RAW and rows in review an older scanner saw, signed by the deployment', async () => {
    const key = (await gate.key('reviewer')).key;
    const stateOf = async (id: string) => (await gate.rpc(key, 'gv.status', { artifact_id: id })).result.state as string;
    const deadline = Date.now() + 30_000;
    while ((await stateOf(raw)) === 'L0_RAW' || (await stateOf(missed)) === 'L1_SCANNED') {
      if (Date.now() > deadline) throw new Error('the start scan did not run');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await stateOf(raw)).toBe('L1_SCANNED');
    expect(await stateOf(missed)).toBe('L1B_FLAGGED');
    const events = (await gate.rpc(key, 'gv.why', { artifact_id: missed })).result.events as Array<{ type: string; by: string | null }>;
    expect(events.filter((e) => e.type === 'scan').map((e) => e.by)).toEqual(['key:olderbuild', null]);
    expect(gate.log.join('\n')).toContain('scanned the rows the scanner owed');
  });
});
