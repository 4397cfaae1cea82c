import { describe, expect, it } from 'vitest';
import { authorizeFields, form, pkcePair, signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process', env: { GATE_AUTH_ADMINS: 'https://elsewhere.example|ops-1' } });

describe('gv.people (admin): list, assign, remove, journaled', () => {
  it('is an admin verb: a reviewer is refused naming both roles', async () => {
    const reviewer = await signIn(gate, { role: 'reviewer' });
    const refused = await gate.rpc(reviewer.accessToken, 'gv.people');
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toMatch(/gv\.people needs role admin; the caller has role reviewer/);
  });

  it('list names the issuer, each person with role, source, demo and email, and the config admins as source config', async () => {
    const carol = await signIn(gate, { role: 'agent', demo: true, name: 'Carol' });
    const list = (await gate.socket('gv.people')).result;
    expect(list.issuer).toBe(gate.url);
    const entry = list.people.find((p: any) => p.sub === carol.sub);
    expect(entry).toMatchObject({ iss: gate.url, role: 'agent', source: 'people', demo: true, email: carol.email, name: 'Carol', signs_in_here: true, assigned_by: expect.stringMatching(/^uid:/) });
    expect(list.people).toContainEqual(expect.objectContaining({ iss: 'https://elsewhere.example', sub: 'ops-1', role: 'admin', source: 'config' }));
  });

  it('assign journals person-assigned; the same assignment again journals nothing', async () => {
    const dave = await signIn(gate, { role: 'reader' });
    const first = await gate.socket('gv.people', { action: 'assign', sub: dave.sub, role: 'reviewer' });
    expect(first.result).toMatchObject({ role: 'reviewer', changed: true, event_id: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const again = await gate.socket('gv.people', { action: 'assign', sub: dave.sub, role: 'reviewer' });
    expect(again.result).toMatchObject({ changed: false, event_id: first.result.event_id });
    expect((await gate.rpc(dave.accessToken, 'gv.describe')).result.you.role).toBe('reviewer');
  });

  it('assign refuses a role outside reader, agent, reviewer, admin by name, and needs sub and role', async () => {
    expect((await gate.socket('gv.people', { action: 'assign', sub: 'x', role: 'runner' })).error?.data).toEqual({ field: 'role' });
    expect((await gate.socket('gv.people', { action: 'assign', role: 'agent' })).error?.data).toEqual({ field: 'sub' });
    expect((await gate.socket('gv.people', { action: 'assign', sub: 'x' })).error?.data).toEqual({ field: 'role' });
    expect((await gate.socket('gv.people', { action: 'list', color: 'red' })).error?.data).toEqual({ field: 'color' });
    expect((await gate.socket('gv.people', { action: 'assign', sub: 'x', role: null })).error?.data).toEqual({ field: 'role' });
  });

  it('an external person (another iss) is assigned by iss and sub', async () => {
    const assigned = await gate.socket('gv.people', { action: 'assign', iss: 'https://idp.example', sub: 'u-42', role: 'agent', email: 'u42@idp.example' });
    expect(assigned.result).toMatchObject({ iss: 'https://idp.example', sub: 'u-42', role: 'agent' });
    expect(assigned.result.people).toContainEqual(expect.objectContaining({ identity: 'https://idp.example|u-42', signs_in_here: false }));
  });

  it('remove ends the person here: role entry gone (was named), their token refused 401, sign-in refused', async () => {
    const erin = await signIn(gate, { role: 'agent' });
    expect((await gate.rpc(erin.accessToken, 'gv.ping')).result.pong).toBe(true);
    const removed = await gate.socket('gv.people', { action: 'remove', sub: erin.sub });
    expect(removed.result).toMatchObject({ iss: gate.url, sub: erin.sub, removed: true, was: 'agent', event_id: expect.any(String) });
    const after = await gate.http('POST', '/rpc', { key: erin.accessToken, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(after.status).toBe(401);
    expect(after.json.kind).toBe('signature');
    const refresh = await gate.http('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: erin.refreshToken }));
    expect(refresh.json.error).toBe('invalid_grant');
    const fields = authorizeFields(gate, pkcePair().challenge);
    const page = await gate.http('POST', '/oauth/authorize', form({ ...fields, email: erin.email, password: erin.password }));
    expect(page.status).toBe(200);
    expect(page.text).toContain('The email or password is not right.');
    expect((await gate.socket('gv.people', { action: 'remove', sub: erin.sub })).result).toEqual({ iss: gate.url, sub: erin.sub, removed: false });
  });
});

describe('gv.person_add: the operator door for people who sign in here', () => {
  it('is served on the socket only', async () => {
    const admin = await signIn(gate, { role: 'admin' });
    const refused = await gate.rpc(admin.accessToken, 'gv.person_add', { email: 'x@example.test', password: 'long enough' });
    expect(refused.error?.message).toMatch(/served on the socket surface only/);
  });

  it('refuses a second person with the same email (case and space aside) and a short password', async () => {
    const first = await gate.socket('gv.person_add', { email: 'Frank@Example.test', password: 'a long password' });
    expect(first.result).toMatchObject({ email: 'frank@example.test', role: 'reader', demo: false });
    const again = await gate.socket('gv.person_add', { email: 'frank@example.test', password: 'another password' });
    expect(again.error?.data).toEqual({ field: 'email' });
    expect((await gate.socket('gv.person_add', { email: 'g@example.test', password: 'short' })).error?.data).toEqual({ field: 'password' });
  });
});
