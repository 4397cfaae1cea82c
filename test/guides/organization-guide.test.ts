import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/sign-in.js';
import { guideCommands, Walkthrough } from '../harness/walkthrough.js';

/**
 * docs/guide-organization.md, run as written (issue 35, section 3): an organization gate on its
 * embedded PostgreSQL, one member gate joined to it (a start, the member added, a restart with the
 * [org] settings), a claim a person promoted there submitted, countersigned by the organization's
 * reviewer, and pulled back: no longer provisional, both logs verified. Only what a person supplies
 * is substituted (see test/harness/walkthrough.ts): ports, the home, printed values, alice's
 * password and her browser sign-in for `gate sign`.
 */
let walk: Walkthrough | undefined;
afterAll(async () => {
  await walk?.close();
});

describe('guide: an organization with one member', () => {
  it('pasted in order, ends with the member’s claim countersigned by the organization and both logs verified', async () => {
    const [member, org] = [await freePort(), await freePort()];
    walk = new Walkthrough({
      ports: { '8480': member, '8490': org },
      password: 'correct horse battery staple',
      ready: (command) =>
        command.startsWith('gate org serve ')
          ? new RegExp(`^gate org listening on http://127\\.0\\.0\\.1:${org} deployment `)
          : new RegExp(`^gate listening on http://127\\.0\\.0\\.1:${member} `),
      signer: () => 'alice@example.com',
      printed: (name, _value, ran) => (name === 'MEMBER_ID' ? ran.at(-1)!.json.result.deployment_id : undefined),
    });
    await walk.run(guideCommands('docs/guide-organization.md', 'organization'));

    const claim = walk.env['CLAIM'];
    const call = (method: string) => walk!.all(`gate call ${method}`).map((r) => r.json.result);
    expect(walk.all('gate sign ')[0]!.json).toMatchObject({ artifact_id: claim, state: 'ACTIVE', class: 'human', promoted: true });
    const [before, after] = call('gv.countersign_status');
    expect(before).toMatchObject({ provisional: true, countersigned: false, awaiting: true });
    expect(call('gv.submit')[0]).toMatchObject({ artifact_id: claim, state: 'queued' });
    expect(call('gv.submit_drain')[0]).toMatchObject({ sent: 1, accepted: 1, refused: 0, queued: 0 });
    const orgRpc = walk.ran.filter((r) => r.command.includes(`127.0.0.1:${org}/rpc`)).map((r) => r.json.result);
    expect(orgRpc[0].items.map((i: any) => [i.member_deployment_id, i.artifact_id])).toEqual([[walk.env['MEMBER_ID'], claim]]);
    expect(orgRpc[0].items[0].submission.approval.approved_by).toMatchObject({ human: 1 });
    expect(orgRpc[1]).toMatchObject({ artifact_id: claim, state: 'countersigned', changed: true });
    expect(call('gv.outcomes_pull')[0]).toMatchObject({ pulled: 1, countersigned: 1, refused: 0 });
    expect(after).toMatchObject({ provisional: false, countersigned: true, awaiting: false });
    expect(walk.all('gate org verify')[0]!.out).toMatch(/^ok: \d+ events/);
  }, 300_000);
});
