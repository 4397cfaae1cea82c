import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { InProcessServer } from '../harness/in-process-server.js';
import { form, refreshCookieOf, signIn } from '../harness/sign-in.js';

let gate: InProcessServer | undefined;
afterAll(async () => {
  await gate?.stop();
});

const KINDS = ['memory', 'derived_fact', 'summary', 'steering', 'skill', 'prompt_template', 'imported_document'];
const RECORDED = ['trace', 'tool_call', 'message', 'session', 'usage_record'];

describe('gv.rebuild replays the journal into fresh tables equal to the live ones', () => {
  it('after a long mixed workload, and again after a restart', async () => {
    // Served in this process, its own sign-in provider (people sign in below).
    gate = await InProcessServer.start();
    const g = gate;
    const agents = [await g.key('agent'), await g.key('agent'), await g.key('agent')];
    const reviewer = await g.key('reviewer');
    await g.socket('gv.space_create', { name: 'research', policy: 'auto' });
    await g.socket('gv.grant', {
      action: 'issue',
      grants: agents.map((a) => ({ principal: a.identity, space: 'research', capabilities: ['read', 'contribute'] })),
    });
    const ids: string[] = [];
    const ownIds = new Map<string, string[]>();
    for (let i = 0; i < 240; i++) {
      const a = agents[i % agents.length]!;
      const recorded = i % 7 === 0;
      const answer = await g.rpc(a.key, 'gv.ingest', {
        content: i % 11 === 0 ? `secret in the claim: aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY${i}"` : uniqueText(`mixed ${i}`),
        workarea: `tests/rebuild/${i % 5}`,
        source_uri: `test://rebuild/${i}`,
        space: i % 3 === 0 ? 'research' : 'main',
        ...(recorded ? { content_type: RECORDED[i % RECORDED.length] } : { kind: KINDS[i % KINDS.length] }),
        ...(i % 4 === 0 ? { producer: { name: `worker-${i % 3}`, kind: 'agent' } } : {}),
        // Both lists, names first: the view must store what a replay stores, whatever order the caller used.
        ...(!recorded && KINDS[i % KINDS.length] === 'steering' ? { addressed_to: { names: [`worker-${i % 3}`], kinds: ['agent'] } } : {}),
        // C8: an agent may cite only what it can read; its own earlier rows always qualify.
        ...((ownIds.get(a.key)?.length ?? 0) > 0 && i % 6 === 0 ? { derives_from: [ownIds.get(a.key)!.at(-1)] } : {}),
      });
      expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
      ids.push(answer.result.artifact_id);
      ownIds.set(a.key, [...(ownIds.get(a.key) ?? []), answer.result.artifact_id]);
      if (answer.result.state === 'L1_SCANNED' && i % 2 === 0) {
        await g.readBody(reviewer.key, answer.result.artifact_id);
        const promoted = await g.rpc(reviewer.key, 'gv.promote', { artifact_id: answer.result.artifact_id });
        expect(promoted.result.state).toBe('ACTIVE');
        if (i % 10 === 0) await g.rpc(reviewer.key, 'gv.demote', { artifact_id: answer.result.artifact_id, reason: 'stale' });
      } else if (answer.result.state !== 'RECORDED' && i % 5 === 1) {
        await g.rpc(reviewer.key, 'gv.reject', { artifact_id: answer.result.artifact_id, reason: 'off-scope' });
      }
      if (i % 60 === 0) {
        const extra = await g.key('reader', { label: `reader ${i}` });
        await g.socket('gv.keys', { action: 'revoke', key_id: extra.keyId });
      }
    }
    // Work areas: declared relations between areas each agent wrote into, and completed parts
    // (agent 0 writes only into research, the others only into main).
    for (const [n, a] of agents.entries()) {
      const space = n === 0 ? 'research' : 'main';
      for (const [from, kind, to] of [[1, 'opened_by', 0], [2, 'continues', 1], [3, 'derived_from', 0]] as const) {
        const related = await g.rpc(a.key, 'gv.workarea_relate', { space, workarea: `tests/rebuild/${from}`, kind, target: `tests/rebuild/${to}` });
        expect(related.result?.changed, JSON.stringify(related.error)).toBe(true);
      }
      expect((await g.rpc(a.key, 'gv.complete', { space, workarea: 'tests/rebuild/4' })).result?.changed).toBe(true);
      const refused = await g.rpc(a.key, 'gv.ingest', { space, content: uniqueText('late'), workarea: 'tests/rebuild/4', kind: 'memory', source_uri: 's' });
      expect(refused.error?.data).toEqual({ reason: 'work_complete' });
    }
    // Attachments, bundles and maps: uploads (one abandoned), an attachment read to its end, a
    // bundle that passed and one that failed, a map.
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { readAttachment, upload } = await import('../harness/attachments.js');
    const fixture = (p: string) => readFileSync(join(ROOT, 'fixtures', p));
    const photo = await upload(g, agents[1]!.key, fixture('images/gps.png'));
    await upload(g, agents[1]!.key, fixture('images/pixel-bomb.png'));
    const withPhoto = await g.rpc(agents[1]!.key, 'gv.ingest', { content: uniqueText('photo'), workarea: 'tests/rebuild/0', kind: 'memory', source_uri: 's', attachments: [{ sha256: photo.result.sha256, name: 'p.png' }] });
    await readAttachment(g, reviewer.key, withPhoto.result.artifact_id, photo.result.sha256);
    await g.readBody(reviewer.key, withPhoto.result.artifact_id);
    expect((await g.rpc(reviewer.key, 'gv.promote', { artifact_id: withPhoto.result.artifact_id })).result?.state).toBe('ACTIVE');
    for (const zip of ['skill-valid.zip', 'symlink.zip']) {
      const b = await g.rpc(agents[2]!.key, 'gv.ingest_bundle', { content: fixture(`bundles/${zip}`).toString('base64'), workarea: 'tests/rebuild/1', source_uri: 's' });
      expect(b.result?.state, JSON.stringify(b.error)).toBe('quarantined');
    }
    const map = await g.rpc(agents[2]!.key, 'gv.ingest_map', {
      manifest: { map_version: 'project_map/v1', project: 'gate', produced_by: { name: 'mapper' }, members: [], nodes: [{ id: 'a', kind: 'module' }, { id: 'b', kind: 'module' }], edges: [{ source: 'a', target: 'b', kind: 'imports' }] },
      workarea: 'tests/rebuild/1',
      source_uri: 's',
    });
    expect(map.result?.validation, JSON.stringify(map.error)).toBe('structural');
    await g.socket('gv.grant', {
      action: 'revoke',
      grants: [{ principal: agents[0]!.identity, space: 'research', capabilities: ['contribute'] }],
    });
    // People and sign-in sessions: assigned, refreshed, a reused refresh token, logged out, removed.
    const people = [await signIn(g, { role: 'agent' }), await signIn(g, { role: 'reviewer', demo: true }), await signIn(g, { role: 'reader' })];
    const refresh = (token: string) => g.http('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: token }));
    const rotated = refreshCookieOf((await refresh(people[0]!.refreshToken)).headers)!;
    expect((await refresh(people[0]!.refreshToken)).json.error).toBe('invalid_grant');
    expect((await refresh(rotated)).json.error).toBe('invalid_grant');
    await refresh(people[1]!.refreshToken);
    await g.http('POST', '/oauth/logout', form({ refresh_token: people[2]!.refreshToken }));
    await g.socket('gv.people', { action: 'assign', sub: people[1]!.sub, role: 'agent' });
    await g.socket('gv.people', { action: 'assign', iss: 'https://idp.example', sub: 'u1', role: 'reviewer' });
    await g.socket('gv.people', { action: 'remove', sub: people[0]!.sub });
    // Review: verdicts (and the deployment's promotions they lead to in auto spaces), second
    // opinions, comments and a retraction, an away period, a categorised rejection.
    expect((await g.rpc(reviewer.key, 'gv.grade_pending', { limit: 1000 })).result.graded).toBeGreaterThan(0);
    await g.rpc(reviewer.key, 'gv.review_pending', { limit: 1000 });
    const commented = ids[1]!;
    const said = await g.rpc(reviewer.key, 'gv.comment', { artifact_id: commented, kind: 'objection', body: 'check the source' });
    await g.rpc(reviewer.key, 'gv.comment', { artifact_id: commented, kind: 'resolution', reply_to: said.result.event_id, body: 'checked' });
    await g.socket('gv.comment_retract', { artifact_id: commented, event_id: said.result.event_id });
    await g.socket('gv.away', { note: 'rebuild test' });
    await g.socket('gv.back', {});
    const held = (await g.rpc(reviewer.key, 'gv.inventory', { states: ['L1_SCANNED', 'L2_SCORED'], limit: 1 })).result.artifacts[0];
    if (held) await g.rpc(reviewer.key, 'gv.reject', { artifact_id: held.artifact_id, category: 'off-scope' });
    const first = await g.socket('gv.rebuild');
    expect(first.error, JSON.stringify(first.error)).toBeUndefined();
    expect(first.result.equal).toBe(true);
    expect(first.result.events).toBeGreaterThan(500);
    for (const table of Object.values(first.result.tables) as Array<{ equal: boolean }>) expect(table.equal).toBe(true);
    expect(Object.keys(first.result.tables)).toEqual(
      expect.arrayContaining(['artifacts', 'recall_fts', 'spaces', 'grants', 'api_keys', 'state_counts', 'workarea_parts', 'workarea_relations', 'people', 'signin_sessions', 'signin_refresh_tokens', 'uploads', 'row_attachments', 'attachment_reads']),
    );
    // The held rows' text index is derived after each commit, not replayed: checked entry by entry.
    expect(first.result.held).toMatchObject({ missing: 0, differing: 0, extra: 0, rewritten: 0 });
    expect(first.result.held.equal).toBe(first.result.held.checked);
    await g.stop();
    await g.restart();
    const second = await g.socket('gv.rebuild');
    expect(second.result.equal).toBe(true);
    expect(second.result.live_digest).toBe(first.result.live_digest);
  }, 120_000);
});

describe('a home whose views were made by another view schema', () => {
  it('drops them and replays the journal at start', async () => {
    const { default: Database } = await import('better-sqlite3');
    const { join } = await import('node:path');
    const g = await InProcessServer.start();
    try {
      const agent = await g.key('agent');
      const reviewer = await g.key('reviewer');
      const row = await g.rpc(agent.key, 'gv.ingest', { content: 'the views come back from the journal: quokka', workarea: 'tests/views', kind: 'memory', source_uri: 's' });
      await g.readBody(reviewer.key, row.result.artifact_id);
      await g.rpc(reviewer.key, 'gv.promote', { artifact_id: row.result.artifact_id });
      await g.stop();
      // An older build's views: another version number, and tables that no longer match the journal.
      const db = new Database(join(g.home, 'gate.db'));
      db.exec('DELETE FROM artifacts; DELETE FROM recall_fts; DELETE FROM api_keys;');
      db.pragma('user_version = 1');
      db.close();
      const seen = g.log.length;
      await g.restart();
      expect(g.log.slice(seen).some((l) => /views rebuilt from \d+ journal events/.test(l))).toBe(true);
      const recalled = await g.rpc(agent.key, 'gv.recall', { query: 'quokka' });
      expect(recalled.result.hits.map((h: { artifact_id: string }) => h.artifact_id)).toEqual([row.result.artifact_id]);
      expect((await g.socket('gv.rebuild')).result.equal).toBe(true);
    } finally {
      await g.stop();
    }
  });
});
