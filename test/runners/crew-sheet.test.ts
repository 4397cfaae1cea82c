import { describe, expect, it } from 'vitest';
import { crewSettings, hello, issueKey, makeCrew, makeRunner, newInstance, proposeSheet, readWhole, sheetText } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

describe('crew_sheet/1 bodies', () => {
  it('a prompt_template claiming the crew-sheet form must satisfy it, naming what breaks it', async () => {
    const agent = await issueKey(server, 'agent');
    const ingest = (content: string) =>
      server.rpc(agent.key, 'gv.ingest', { workarea: 'crew/bad', kind: 'prompt_template', source_uri: 's', content });
    const bad = await ingest(sheetText({ roles: [{ role: 'lead', type: 'astrology', members: 1 }] }));
    expect(bad.error).toMatchObject({ code: -32602, data: { field: 'content' } });
    expect(bad.error!.message).toContain('roles.0.type');
    const twice = await ingest(sheetText({ roles: [{ role: 'lead', type: 'coding', members: 1 }, { role: 'lead', type: 'fast', members: 1 }] }));
    expect(twice.error!.message).toContain('a role is named twice');
    const tooMany = await ingest(sheetText({ roles: [{ role: 'lead', type: 'coding', members: 17 }] }));
    expect(tooMany.error!.message).toContain('roles.0.members');
    const unlisted = await ingest(sheetText({ colour: 'blue' }));
    expect(unlisted.error!.message).toContain('colour');
    // The same words as another kind are no crew sheet and no check applies.
    const memory = await server.rpc(agent.key, 'gv.ingest', { workarea: 'crew/bad', kind: 'memory', source_uri: 's', content: sheetText({ colour: 'blue' }) });
    expect(memory.error).toBeUndefined();
  });
});

describe("gv.promote's crew-sheet checks", () => {
  it('connections grant read elsewhere: a reviewer is refused connection_needs_admin, an admin promotes', async () => {
    const sheet = await proposeSheet(server, { connections: ['main'] });
    const refused = await server.rpc(sheet.reviewer.key, 'gv.promote', { artifact_id: sheet.sheetId });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'connection_needs_admin', connections: ['main'] } });
    const admin = await issueKey(server, 'admin');
    await readWhole(server, admin.key, sheet.sheetId);
    const promoted = await server.rpc(admin.key, 'gv.promote', { artifact_id: sheet.sheetId });
    expect(promoted.result?.state, JSON.stringify(promoted.error)).toBe('ACTIVE');
  });

  it('answering names a crew: a space without a served sheet is refused answering_not_a_crew', async () => {
    await server.socket('gv.space_create', { name: 'plain-space', policy: 'auto' });
    const sheet = await proposeSheet(server, { answering: 'plain-space' });
    const refused = await server.rpc(sheet.reviewer.key, 'gv.promote', { artifact_id: sheet.sheetId });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'answering_not_a_crew', answering: 'plain-space' } });
  });

  it('answering is one step: naming a crew that sends its questions on, or sending on what others send here, is answering_chain', async () => {
    const research = await makeCrew(server);
    const coding = await makeCrew(server, { answering: research.space });
    // coding sends its questions to research: a third crew may not answer through coding.
    const third = await proposeSheet(server, { answering: coding.space });
    expect((await server.rpc(third.reviewer.key, 'gv.promote', { artifact_id: third.sheetId })).error?.data).toEqual({
      reason: 'answering_chain',
      answering: coding.space,
    });
    // research answers for coding: a new research sheet cannot send research's own questions on.
    const elsewhere = await makeCrew(server);
    const onward = await proposeSheet(server, { answering: elsewhere.space }, research.space);
    expect((await server.rpc(onward.reviewer.key, 'gv.promote', { artifact_id: onward.sheetId })).error?.data).toEqual({
      reason: 'answering_chain',
      answering: elsewhere.space,
    });
  });

  it("a sheet for an assigned crew is checked against the runner's models (runner_lacks_type, with missing) and capacity (runner_full)", async () => {
    const crew = await makeCrew(server);
    const runner = await makeRunner(server);
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId })).error).toBeUndefined();
    const coding = await proposeSheet(server, { roles: [{ role: 'dev', type: 'coding', members: 1 }, { role: 'qa', type: 'review', members: 1 }] }, crew.space);
    expect((await server.rpc(coding.reviewer.key, 'gv.promote', { artifact_id: coding.sheetId })).error?.data).toEqual({
      reason: 'runner_lacks_type',
      missing: ['coding', 'review'],
    });
    // The newest hello says the runner holds 4 members at most.
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance: newInstance(), capacity: { crews: 2, members: 4 } }));
    const big = await proposeSheet(server, { roles: [{ role: 'lead', type: 'reasoning', members: 5 }] }, crew.space);
    const full = await server.rpc(big.reviewer.key, 'gv.promote', { artifact_id: big.sheetId });
    expect(full.error?.data).toMatchObject({ reason: 'runner_full', capacity: { crews: 2, members: 4 }, crews: 1, members: 5 });
    const fits = await proposeSheet(server, { roles: [{ role: 'lead', type: 'reasoning', members: 4 }] }, crew.space);
    expect((await server.rpc(fits.reviewer.key, 'gv.promote', { artifact_id: fits.sheetId })).result?.state).toBe('ACTIVE');
  });

  it('settling an auto space never serves a crew sheet: it waits for gv.promote and its checks', async () => {
    const sheet = await proposeSheet(server, { connections: ['main'] });
    await server.rpc(sheet.reviewer.key, 'gv.grade', { artifact_id: sheet.sheetId });
    await server.socket('gv.settle_pending', {});
    expect((await server.rpc(sheet.reviewer.key, 'gv.status', { artifact_id: sheet.sheetId })).result.state).not.toBe('ACTIVE');
  });
});

describe('gv.override_tip', () => {
  it('never pins a crew sheet (crew_sheet_not_pinned); other rows still pin', async () => {
    const crew = await makeCrew(server);
    const refused = await server.rpc(crew.reviewer.key, 'gv.override_tip', { artifact_id: crew.sheetId });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'crew_sheet_not_pinned' } });
    const plain = await server.rpc(crew.agent.key, 'gv.ingest', { space: crew.space, workarea: 'crew/notes', kind: 'memory', source_uri: 's', content: sheetText() });
    await readWhole(server, crew.reviewer.key, plain.result.artifact_id);
    await server.rpc(crew.reviewer.key, 'gv.promote', { artifact_id: plain.result.artifact_id });
    expect((await server.rpc(crew.reviewer.key, 'gv.override_tip', { artifact_id: plain.result.artifact_id })).result?.pinned).toBe(true);
  });
});
