import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { readAttachment, sha256Of, upload } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

/**
 * NEEDS_EVIDENCE end to end through the real doors: a reviewer sends a held row back with
 * what is missing (gv.request_evidence, a `ratify` event), its writer reads the request,
 * uploads and attaches the evidence (gv.add_evidence), the row is scanned again and waits
 * for review in L1_SCANNED, and a reviewer promotes it; the replay gives the same views.
 */
const { gate, keys: { writer, stranger, reviewer, reviewer2, reader }, ingestResult } = useGate({
  kind: 'in-process',
  keys: { writer: 'agent', stranger: 'agent', reviewer: 'reviewer', reviewer2: 'reviewer', reader: 'reader' },
});

const ASKS = 'Cite the benchmark run these numbers come from.';
const held = async (key = writer.key) => ingestResult(key, { content: uniqueText('evidence'), workarea: 'tests/evidence', source_uri: 'test://evidence', kind: 'memory' });
/** A completed upload of the writer's: text bytes no sniffer names, so they are text/plain. */
const uploaded = async (key = writer.key, text = uniqueText('benchmark run log')) => {
  const bytes = Buffer.from(text);
  const done = await upload(gate, key, bytes);
  expect(done.error, JSON.stringify(done.error)).toBeUndefined();
  return sha256Of(bytes);
};

describe('a row sent back for evidence and returned to review', () => {
  it('goes the whole way: sent back, the writer reads why, adds evidence, back in review, promoted; the replay agrees', async () => {
    const row = await held();
    expect(row.state).toBe('L1_SCANNED');

    const sent = await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS });
    expect(sent.error).toBeUndefined();
    expect(sent.result).toMatchObject({ artifact_id: row.artifact_id, state: 'NEEDS_EVIDENCE', leaves: 'L1_SCANNED' });

    // The writer learns it: the state, the closed reason, what waits, and the reviewer's words.
    const node = (await gate.rpc(writer.key, 'gv.node', { artifact_id: row.artifact_id })).result;
    expect(node.status).toEqual({ state: 'NEEDS_EVIDENCE', reason: 'needs_evidence', provisional: false });
    expect(node.approval.waits_for).toMatchObject({ blocker: 'needs_evidence', code: 'evidence' });
    expect(node.evidence).toEqual([{ event_id: sent.result.event_id, by: reviewer.identity, ts: expect.any(Number), asks: ASKS, answered: null }]);
    const pending = (await gate.rpc(writer.key, 'gv.pending', {})).result.pending.find((p: any) => p.artifact_id === row.artifact_id);
    expect(pending).toMatchObject({ state: 'NEEDS_EVIDENCE', evidence_asked: ASKS });
    const listed = (await gate.rpc(writer.key, 'gv.inventory', { states: ['NEEDS_EVIDENCE'] })).result.artifacts.find((r: any) => r.artifact_id === row.artifact_id);
    expect(listed).toMatchObject({ state: 'NEEDS_EVIDENCE', evidence_asked: ASKS });

    // The event is the protocol's ratify into NEEDS_EVIDENCE (docs/protocol.md#states), served to the writer, without the reviewer's words.
    const events = (await gate.rpc(writer.key, 'gv.events', {})).result.events.filter((e: any) => e.artifact_id === row.artifact_id);
    const ratify = events.find((e: any) => e.type === 'ratify');
    expect(ratify).toMatchObject({ leaves: 'L1_SCANNED', enters: 'NEEDS_EVIDENCE', by: reviewer.identity, signer_class: 'agent' });
    expect(JSON.stringify(events)).not.toContain('benchmark');

    // While it waits for its writer it is neither promoted nor graded.
    await gate.readBody(reviewer2.key, row.artifact_id);
    expect((await gate.rpc(reviewer2.key, 'gv.promote', { artifact_id: row.artifact_id })).error).toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });
    expect((await gate.rpc(reviewer2.key, 'gv.grade', { artifact_id: row.artifact_id })).error).toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });

    const evidence = await uploaded();
    const added = await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: evidence, name: 'run.log' }] });
    expect(added.error, JSON.stringify(added.error)).toBeUndefined();
    expect(added.result).toMatchObject({ artifact_id: row.artifact_id, state: 'L1_SCANNED', trust_class: row.trust_class, attachments: [{ sha256: evidence, media_type: 'text/plain' }] });

    // Back in review: the queue shows the evidence among the row's attachments, and the request answered.
    const item = (await gate.rpc(reviewer2.key, 'gv.review', { cap: 500 })).result.items.find((i: any) => i.artifact_id === row.artifact_id);
    expect(item).toMatchObject({ state: 'L1_SCANNED', attachments: [{ sha256: evidence }], evidence_request: { asks: ASKS, answered: { attachments: [{ sha256: evidence, name: 'run.log' }] } } });
    const read = await readAttachment(gate, reviewer2.key, row.artifact_id, evidence);
    expect(read.bytes.toString()).toContain('benchmark run log');
    const after = (await gate.rpc(writer.key, 'gv.node', { artifact_id: row.artifact_id })).result;
    expect(after.evidence[0].answered).toMatchObject({ event_id: added.result.evidence_event_id, attachments: [{ sha256: evidence, name: 'run.log' }] });

    await gate.readBody(reviewer2.key, row.artifact_id);
    expect((await gate.rpc(reviewer2.key, 'gv.promote', { artifact_id: row.artifact_id })).result).toMatchObject({ state: 'ACTIVE' });

    // Its served history: the request and the scan that returned it (evidence-added stays inside).
    const why = (await gate.rpc(writer.key, 'gv.why', { artifact_id: row.artifact_id })).result.events;
    expect(why.map((e: any) => `${e.type}:${e.enters}`)).toEqual(['ingest:L0_RAW', 'scan:L1_SCANNED', 'ratify:NEEDS_EVIDENCE', 'scan:L1_SCANNED', 'promote:ACTIVE']);
    // A ratify that sent it back is no promotion: the reviewer who asked is not counted as promoting.
    const engagement = (await gate.rpc(reviewer.key, 'gv.engagement', { days: 1 })).result;
    expect(engagement.promoted).toBe(0);

    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.error, JSON.stringify(rebuilt.error)).toBeUndefined();
    expect(rebuilt.result.equal).toBe(true);
    expect(rebuilt.result.tables.row_attachments.equal).toBe(true);
  });

  it('an L2_SCORED row is sent back too, and returns to L1_SCANNED; a source_uri on the evidence raises the row to T-4', async () => {
    // A model-reviewed space: a verdict scores the row and a person settles, so it waits in L2_SCORED.
    await gate.socket('gv.space_create', { name: 'scored', policy: 'model' });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: writer.identity, space: 'scored', capabilities: ['read', 'contribute'] }] });
    const row = await ingestResult(writer.key, { space: 'scored', content: uniqueText('evidence'), workarea: 'tests/evidence', source_uri: 'test://evidence', kind: 'memory' });
    await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: row.artifact_id });
    expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: row.artifact_id })).result.state).toBe('L2_SCORED');
    expect((await gate.rpc(reviewer2.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: 'Where was this measured?' })).result).toMatchObject({ leaves: 'L2_SCORED', state: 'NEEDS_EVIDENCE' });
    const added = await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: await uploaded(), source_uri: 'https://example.org/run/7' }] });
    expect(added.result).toMatchObject({ state: 'L1_SCANNED', trust_class: 'T-4' });
    const item = (await gate.rpc(reviewer.key, 'gv.review', { cap: 500 })).result.items.find((i: any) => i.artifact_id === row.artifact_id);
    expect(item).toMatchObject({ state: 'L1_SCANNED', trust_class: 'T-4' });
  });
});

describe('refusals', () => {
  it('sending back: reviewer role, never the own row, a reason, and only a row waiting unflagged for review', async () => {
    const row = await held();
    for (const key of [reader.key, writer.key]) {
      const e = (await gate.rpc(key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS })).error;
      expect(e?.code).toBe(-32602);
      expect(e?.message).toContain('reviewer');
    }
    const noReason = (await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id })).error;
    expect(noReason).toMatchObject({ code: -32602, data: { field: 'reason' } });
    const blank = (await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: '   ' })).error;
    expect(blank).toMatchObject({ code: -32602, data: { field: 'reason' } });

    const own = await held(reviewer.key);
    expect((await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: own.artifact_id, reason: ASKS })).error).toMatchObject({ code: -32010, data: { reason: 'self_authored' } });

    const flagged = await ingestResult(writer.key, { content: `key: AKIA${'Q7ZR'.repeat(4)} ${uniqueText()}`, workarea: 'tests/evidence', source_uri: 's', kind: 'memory' });
    expect(flagged.state).toBe('L1B_FLAGGED');
    expect((await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: flagged.artifact_id, reason: ASKS })).error).toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });

    // Evidence comes as attachments: a kind that carries none is never sent back for it.
    const template = await ingestResult(writer.key, { content: uniqueText('Summarise {{text}}'), workarea: 'tests/evidence', source_uri: 's', kind: 'prompt_template' });
    expect((await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: template.artifact_id, reason: ASKS })).error).toMatchObject({ code: -32010, data: { reason: 'takes_no_evidence' } });

    expect((await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS })).result.state).toBe('NEEDS_EVIDENCE');
    expect((await gate.rpc(reviewer2.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS })).error).toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });

    const promoted = await held();
    await gate.readBody(reviewer.key, promoted.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: promoted.artifact_id });
    expect((await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: promoted.artifact_id, reason: ASKS })).error).toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });
  });

  it('adding evidence: only its writer, only to a row sent back, completed uploads only, none twice', async () => {
    const row = await held();
    const evidence = await uploaded();
    // Not sent back yet.
    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: evidence }] })).error).toMatchObject({ code: -32010, data: { reason: 'not_sent_back' } });
    await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS });
    // A reviewer reads the row but did not write it; another agent does not even see it.
    expect((await gate.rpc(reviewer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: await uploaded(reviewer.key) }] })).error).toMatchObject({ code: -32602, data: { reason: 'not_the_author' } });
    expect((await gate.rpc(stranger.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: await uploaded(stranger.key) }] })).error?.message).toContain('unknown artifact');
    // Evidence is at least one completed upload of the writer's own.
    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [] })).error).toMatchObject({ code: -32602, data: { field: 'attachments' } });
    const never = sha256Of(Buffer.from(uniqueText('never uploaded')));
    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: never }] })).error).toMatchObject({ code: -32602, data: { field: 'attachments.0.sha256' } });
    expect((await gate.rpc(writer.key, 'gv.status', { artifact_id: row.artifact_id })).result.state).toBe('NEEDS_EVIDENCE');

    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: evidence }] })).result.state).toBe('L1_SCANNED');
    // Once returned it is not sent back again by the same act, and the same file is never attached twice.
    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: await uploaded() }] })).error).toMatchObject({ data: { reason: 'not_sent_back' } });
    await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: 'And the second run?' });
    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: evidence }] })).error).toMatchObject({ code: -32602, data: { reason: 'already_attached' } });
    const node = (await gate.rpc(writer.key, 'gv.node', { artifact_id: row.artifact_id })).result;
    expect(node.evidence.map((r: any) => [r.asks, r.answered === null])).toEqual([
      [ASKS, false],
      ['And the second run?', true],
    ]);
  });
});

describe('limits of the evidence', () => {
  it('a row holds at most 16 attachments, its envelope\'s and its evidence together', async () => {
    const envelope = await Promise.all([1, 2, 3, 4].map((i) => uploaded(writer.key, uniqueText(`envelope ${i}`))));
    const row = await ingestResult(writer.key, { content: uniqueText('evidence'), workarea: 'tests/evidence', source_uri: 's', kind: 'memory', attachments: envelope.map((sha256) => ({ sha256 })) });
    for (let round = 0; round < 3; round++) {
      await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: `round ${round}` });
      const files = await Promise.all([1, 2, 3, 4].map((i) => uploaded(writer.key, uniqueText(`evidence ${round}.${i}`))));
      expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: files.map((sha256) => ({ sha256 })) })).result?.state).toBe('L1_SCANNED');
    }
    await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: 'one more' });
    const over = await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: await uploaded() }] });
    expect(over.error).toMatchObject({ code: -32602, data: { reason: 'too_many_attachments' } });
    const item = (await gate.rpc(reviewer.key, 'gv.review', { cap: 500 })).result.items.find((i: any) => i.artifact_id === row.artifact_id);
    expect(item.attachments).toHaveLength(16);
    expect(item.attachments.slice(0, 4).map((a: any) => a.sha256)).toEqual(envelope);
  });

  it('a banned writer adds no evidence, as at any write door', async () => {
    const row = await held();
    await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS });
    const file = await uploaded();
    await gate.socket('gv.ban', { kind: 'writer', subject: writer.identity, reason: 'test' });
    try {
      expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: file }] })).error?.code).toBe(-32009);
    } finally {
      await gate.socket('gv.ban', { kind: 'writer', subject: writer.identity, lift: true });
    }
    expect((await gate.rpc(writer.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: file }] })).result?.state).toBe('L1_SCANNED');
  });
});

describe('every door', () => {
  it('the socket takes the same verb (its operator is an admin), and the catalog and OpenAPI list both verbs', async () => {
    const row = await held();
    const sent = await gate.socket('gv.request_evidence', { artifact_id: row.artifact_id, reason: ASKS });
    expect(sent.result).toMatchObject({ state: 'NEEDS_EVIDENCE' });
    const catalog = await gate.http('GET', '/mcp/catalog.json');
    const names = (catalog.json.verbs as Array<{ name: string }>).map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['gv.request_evidence', 'gv.add_evidence']));
    const openapi = await gate.http('GET', '/openapi.json', { key: reader.key });
    expect(openapi.text).toContain('gv.request_evidence');
    expect(openapi.text).toContain('gv.add_evidence');
  });
});

describe('the replay', () => {
  it('gives the same views after every path above (several requests, answers, refusals, a ban)', async () => {
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.error, JSON.stringify(rebuilt.error)).toBeUndefined();
    expect(rebuilt.result.equal).toBe(true);
    for (const [name, table] of Object.entries(rebuilt.result.tables) as Array<[string, { equal: boolean }]>) expect(table.equal, name).toBe(true);
  });
});
