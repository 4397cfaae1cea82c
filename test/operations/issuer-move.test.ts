import { afterAll, describe, expect, it } from 'vitest';
import { GateProcess, tempHome } from '../harness/gate-process.js';
import { CLIENT_ID, authorizeCode, authorizeFields, form, freePort, pkcePair, signIn } from '../harness/sign-in.js';

/**
 * Moving the gate's public URL (its issuer) keeps each person: the identity they were added
 * with (`<old issuer>|<sub>`), their grants and their past signatures (docs/operations.md,
 * "Moving the public URL"). Tokens of the old issuer are refused; people added afterwards
 * are named by the new URL.
 */
describe('moving the issuer URL', () => {
  let gate: GateProcess;
  afterAll(() => gate?.stop());

  it("a person signs in at the new URL as the same identity, with their grant and past signature", async () => {
    const home = tempHome();
    const port = await freePort();
    const before = `http://127.0.0.1:${port}`;
    const after = `http://localhost:${port}`;
    const policy = { GATE_SPACES_MAIN_POLICY: 'human', GATE_REVIEW_QUORUM_PROFILE: 'standard' };
    gate = await GateProcess.start({ home, port, env: { ...policy, GATE_AUTH_ISSUER: before } });
    expect((await gate.socket('gv.space_create', { name: 'team', policy: 'human' })).error).toBeUndefined();
    const alice = await signIn(gate, { role: 'reviewer', email: 'alice@example.com', password: 'alice-password-1' });
    expect(alice.identity.startsWith(`${before}|`)).toBe(true);
    expect((await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: alice.identity, space: 'team', capabilities: ['read', 'contribute'] }] })).error).toBeUndefined();
    const writer = await gate.key('agent');
    const claim = await gate.rpc(writer.key, 'gv.ingest', { content: 'The issuer move keeps signatures.', kind: 'memory', workarea: 'ops', source_uri: 'test://move' });
    const id = claim.result.artifact_id as string;
    await gate.readBody(alice.accessToken, id);
    expect((await gate.rpc(alice.accessToken, 'gv.sign', { artifact_id: id, decision: 'approve' })).result).toMatchObject({ class: 'human', counts: true });
    await gate.stop();

    gate = await GateProcess.start({ home, port, env: { ...policy, GATE_AUTH_ISSUER: after } });
    // A token of the old issuer names an issuer this gate no longer is.
    const old = await gate.http('POST', '/rpc', { key: alice.accessToken, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
    expect(old.status).toBe(401);
    expect(old.json).toMatchObject({ kind: 'issuer' });

    // The same email and password at the new URL: the same identity.
    const { verifier, challenge } = pkcePair();
    const fields = authorizeFields(gate, challenge);
    const code = await authorizeCode(gate, fields, 'alice@example.com', 'alice-password-1');
    const tokens = await gate.http('POST', '/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: CLIENT_ID, redirect_uri: fields['redirect_uri']! }));
    expect(tokens.status).toBe(200);
    const accessToken = tokens.json.access_token as string;
    expect(JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).iss).toBe(after);
    const you = (await gate.rpc(accessToken, 'gv.describe')).result.you;
    expect(you).toMatchObject({ identity: alice.identity, role: 'reviewer', kind: 'person' });

    // Her grant holds: she writes into team.
    const written = await gate.rpc(accessToken, 'gv.ingest', { space: 'team', content: 'Written after the move.', kind: 'memory', workarea: 'ops', source_uri: 'test://move' });
    expect(written.error).toBeUndefined();
    // Her past signature is hers, and still counts.
    const reviewer = await gate.key('reviewer');
    const approval = (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result;
    expect(approval.signers).toEqual(expect.arrayContaining([expect.objectContaining({ identity: alice.identity, class: 'human', counts: true })]));
    // The people list says she signs in here.
    const people = (await gate.socket('gv.people', {})).result.people as Array<Record<string, unknown>>;
    expect(people.find((p) => p['identity'] === alice.identity)).toMatchObject({ signs_in_here: true, role: 'reviewer' });

    // Her email is taken at every URL of this gate; a person added now is named by the new URL.
    expect((await gate.socket('gv.person_add', { email: 'alice@example.com', password: 'another-password' })).error?.message).toContain('already signs in here');
    const bob = await gate.socket('gv.person_add', { email: 'bob@example.com', password: 'bob-password-1' });
    expect(bob.result.identity.startsWith(`${after}|`)).toBe(true);
    // Two starts of a gate and two sign-ins: under the suite's load this passes a minute.
  }, 180_000);
});
