import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

describe('gv.keys', () => {
  it('issues a gk_ key shown once, lists it without the raw value, and the key works as key:<key_id>', async () => {
    const issued = await gate.socket('gv.keys', { action: 'issue', role: 'agent', label: 'ci bot', expires_in_days: 30 });
    expect(issued.result.key).toMatch(/^gk_[A-Za-z0-9_-]{43}$/);
    expect(issued.result.key_id).toMatch(/^[0-9a-f]{12}$/);
    expect(issued.result.event_id).toMatch(/^[0-9a-f]{64}$/);
    const list = await gate.socket('gv.keys', {});
    expect(JSON.stringify(list)).not.toContain(issued.result.key);
    expect(list.result.keys.find((k: { key_id: string }) => k.key_id === issued.result.key_id)).toMatchObject({ role: 'agent', label: 'ci bot', active: true });
    const describe = await gate.rpc(issued.result.key, 'gv.describe');
    expect(describe.result.you).toEqual({ identity: `key:${issued.result.key_id}`, role: 'agent', kind: 'program', demo: false });
  });

  it('a key role is never above the issuer role; runner keys are admin-only; scope events is reviewer-only', async () => {
    const reviewer = await gate.key('reviewer');
    const above = await gate.rpc(reviewer.key, 'gv.keys', { action: 'issue', role: 'admin' });
    expect(above.error?.message).toContain('above');
    const runner = await gate.rpc(reviewer.key, 'gv.keys', { action: 'issue', role: 'runner' });
    expect(runner.error?.message).toContain('admin');
    const scoped = await gate.socket('gv.keys', { action: 'issue', role: 'agent', scope: 'events' });
    expect(scoped.error?.message).toContain('reviewer');
    const fine = await gate.rpc(reviewer.key, 'gv.keys', { action: 'issue', role: 'reviewer' });
    expect(fine.result.role).toBe('reviewer');
  });

  it("below admin a caller sees and revokes its own keys and lower-role keys within spaces it reads, never a peer's or a higher role's", async () => {
    await gate.socket('gv.space_create', { name: 'sealed', policy: 'human' });
    const r1 = await gate.key('reviewer');
    const r2 = await gate.key('reviewer');
    const ids = async (key: string) => (await gate.rpc(key, 'gv.keys', {})).result.keys.map((k: { key_id: string }) => k.key_id);
    const child = (await gate.rpc(r1.key, 'gv.keys', { action: 'issue', role: 'agent' })).result;
    const peer = (await gate.rpc(r1.key, 'gv.keys', { action: 'issue', role: 'reviewer' })).result;
    const byAdmin = await gate.key('reader');
    const sealed = await gate.key('agent');
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: sealed.identity, space: 'sealed', capabilities: ['read', 'contribute'] }] });
    const admin = await gate.key('admin');
    const runner = await gate.key('runner');

    // r1 issued both: its own keys, whatever their role.
    expect(await ids(r1.key)).toEqual(expect.arrayContaining([r1.keyId, child.key_id, peer.key_id]));
    const seen = await ids(r2.key);
    // Lower-role keys working only in spaces r2 reads (main is open), whoever issued them; and r2's own.
    expect(seen).toEqual(expect.arrayContaining([r2.keyId, child.key_id, byAdmin.keyId]));
    // A peer's reviewer key, r1 itself, an admin key, a runner key, and a key granted on a space r2 does not read.
    for (const hidden of [peer.key_id, r1.keyId, admin.keyId, runner.keyId, sealed.keyId]) expect(seen).not.toContain(hidden);
    for (const hidden of [peer.key_id, r1.keyId, admin.keyId, runner.keyId, sealed.keyId]) {
      expect((await gate.rpc(r2.key, 'gv.keys', { action: 'revoke', key_id: hidden })).error?.message).toContain('unknown key');
    }

    // Once r2 reads the sealed space, the key granted there is within its reach.
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: r2.identity, space: 'sealed', capabilities: ['read'] }] });
    expect(await ids(r2.key)).toContain(sealed.keyId);
    const revokedSealed = await gate.rpc(r2.key, 'gv.keys', { action: 'revoke', key_id: sealed.keyId, reason: 'rotated' });
    expect(revokedSealed.result).toMatchObject({ key_id: sealed.keyId, revoked: true });

    // r2 revokes the agent key r1 issued: lower-role, in an open space.
    const revoked = await gate.rpc(r2.key, 'gv.keys', { action: 'revoke', key_id: child.key_id });
    expect(revoked.result).toMatchObject({ key_id: child.key_id, revoked: true });
    expect(revoked.result.keys.map((k: { key_id: string }) => k.key_id)).not.toContain(peer.key_id);
    expect((await gate.rpc(r1.key, 'gv.keys', { action: 'revoke', key_id: child.key_id })).result.already).toBe(true);
    expect((await gate.http('POST', '/rpc', { key: child.key, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } })).status).toBe(401);
    expect((await gate.rpc(peer.key, 'gv.ping')).result.role).toBe('reviewer');
  });
});

describe('gv.grant and gv.grants', () => {
  it('applies a batch whole, journals only changed entries, and reports held capabilities', async () => {
    await gate.socket('gv.space_create', { name: 'vault', policy: 'human' });
    const agent = await gate.key('agent');
    const issue = await gate.socket('gv.grant', {
      action: 'issue',
      grants: [
        { principal: agent.identity, space: 'vault', capabilities: ['read', 'contribute'] },
        { principal: 'uid:4242', space: 'vault', capabilities: ['read'] },
      ],
    });
    expect(issue.result.changed).toBe(true);
    expect(issue.result.grants.every((g: { changed: boolean; event_id: string }) => g.changed && g.event_id)).toBe(true);
    const repeat = await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space: 'vault', capabilities: ['read'] }] });
    expect(repeat.result.grants[0]).toMatchObject({ changed: false, held: ['read', 'contribute'] });
    expect(repeat.result.grants[0].event_id).toBeUndefined();
    const listed = await gate.socket('gv.grants', { space: 'vault' });
    expect(listed.result.grants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ principal: agent.identity, capabilities: ['read', 'contribute'], every_process_of_that_user: false }),
        expect.objectContaining({ principal: 'uid:4242', capabilities: ['read'], every_process_of_that_user: true }),
      ]),
    );
  });

  it('refuses the whole batch when one entry is bad: nothing changes', async () => {
    const agent = await gate.key('agent');
    const bad = await gate.socket('gv.grant', {
      action: 'issue',
      grants: [
        { principal: agent.identity, space: 'main', capabilities: ['submit'] },
        { principal: agent.identity, space: 'no-such-space', capabilities: ['read'] },
      ],
    });
    expect(bad.error?.code).toBe(-32602);
    expect((await gate.socket('gv.grants', { principal: agent.identity })).result.grants).toEqual([]);
    for (const grants of [
      [{ principal: agent.identity, space: 'main', capabilities: ['write'] }],
      [{ principal: 'bob', space: 'main', capabilities: ['read'] }],
      [
        { principal: agent.identity, space: 'main', capabilities: ['read'] },
        { principal: agent.identity, space: 'main', capabilities: ['submit'] },
      ],
    ]) {
      expect((await gate.socket('gv.grant', { action: 'issue', grants })).error?.code).toBe(-32602);
    }
  });

  it('a revoke takes effect on the next write, and the refusal is counted for gv.grants', async () => {
    await gate.socket('gv.space_create', { name: 'lab', policy: 'human' });
    const agent = await gate.key('agent');
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space: 'lab', capabilities: ['contribute'] }] });
    const write = () => gate.rpc(agent.key, 'gv.ingest', { content: `lab note ${Math.random()}`, workarea: 'w', kind: 'memory', source_uri: 's', space: 'lab' });
    expect((await write()).result.state).toBe('L1_SCANNED');
    await gate.socket('gv.grant', { action: 'revoke', grants: [{ principal: agent.identity, space: 'lab', capabilities: ['contribute'] }] });
    expect((await write()).error?.data).toEqual({ reason: 'not_granted', space: 'lab', capability: 'contribute' });
    const grants = await gate.socket('gv.grants', {});
    expect(grants.result.refused_not_granted[agent.identity]).toBe(1);
    expect(grants.result.upgrade).toContain(agent.identity);
  });
});
