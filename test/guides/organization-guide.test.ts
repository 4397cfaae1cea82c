import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/sign-in.js';
import { guideCommands, Walkthrough } from '../harness/walkthrough.js';

/**
 * docs/guide-organization.md, run as written (issue 35, section 3): an organization gate on its
 * embedded PostgreSQL trusting the member's sign-in, one member gate joined to it while it runs
 * (`gate org join`, no restart), a claim a person promoted there submitted, countersigned by a
 * person at the organization from the terminal (`gate org review`), and pulled back: no longer
 * provisional, both logs verified. Only what a person supplies is substituted (see
 * test/harness/walkthrough.ts): ports, the home, printed values, the passwords and the browser
 * sign-ins of alice (`gate sign`) and bob (`gate org sign-in`, whose sign-in his `gate org
 * review`s use).
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
      signer: (command) => (command.startsWith('gate sign ') ? 'alice@example.com' : 'bob@example.com'),
      printed: (name, _value, ran) => {
        if (name === 'MEMBER_ID') return ran.at(-1)!.json.result.deployment_id;
        // "signed in at ISS as ISS|SUB: role reader ...": the subject after the bar.
        if (name === 'BOB_SUB') return / as \S+\|([^:\s]+): role /.exec(ran.at(-1)!.out)?.[1];
        return undefined;
      },
    });
    await walk.run(guideCommands('docs/guide-organization.md', 'organization'));

    const claim = walk.env['CLAIM'];
    const call = (method: string) => walk!.all(`gate call ${method}`).map((r) => r.json.result);
    expect(walk.all('gate sign ')[0]!.json).toMatchObject({ artifact_id: claim, state: 'ACTIVE', class: 'human', promoted: true });
    const [before, after] = call('gv.countersign_status');
    expect(before).toMatchObject({ provisional: true, countersigned: false, awaiting: true });
    expect(call('gv.submit')[0]).toMatchObject({ artifact_id: claim, state: 'queued' });
    expect(call('gv.submit_drain')[0]).toMatchObject({ sent: 1, accepted: 1, refused: 0, queued: 0 });
    expect(walk.all('gate org join ')[0]!.out).toContain(`as the member ${walk.env['MEMBER_ID']}`);
    const bob = `http://127.0.0.1:${member}|${walk.env['BOB_SUB']}`;
    expect(walk.all('gate org sign-in ')[0]!.out).toContain(`as bob@example.com, known to the organization as ${bob}: role reader`);
    const [listed, decided] = walk.all('gate org review ');
    // One sign-in in the browser: the reviews use the one gate org sign-in kept, and sign-out ends it.
    for (const review of [listed!, decided!]) expect(review.err).not.toContain('Sign in in your browser');
    // He is asked and answered by his email, the identity the organization records beside it.
    expect(decided!.err).toContain(`Countersign as bob@example.com (${bob})? [y/N]`);
    expect(decided!.out).toContain(`Countersigned by bob@example.com (${bob}).`);
    expect(walk.all('gate org sign-out ')[0]!.out).toContain(`the sign-in of bob@example.com (${bob}) is forgotten here and its token revoked at http://127.0.0.1:${member}`);
    expect(listed!.out).toContain(`${claim} from member ${walk.env['MEMBER_ID']}`);
    expect(listed!.out).toContain('Releases are cut on Thursdays.');
    expect(listed!.out).toMatch(/at the member: human_approved: approve by \S+ \(human\b/);
    expect(decided!.json).toMatchObject({ artifact_id: claim, state: 'countersigned', changed: true, by: bob });
    // Two people: alice signed at the member, bob countersigned at the organization.
    // She is shown by the email the submission carries, her identity beside it (docs/organization.md).
    const signer = /approve by (\S+) \(human[^;)]*; ([^)\s]+)\)/.exec(listed!.out);
    expect(signer?.[1]).toBe('alice@example.com');
    const alice = signer?.[2];
    expect(alice).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${member}\\|`));
    expect(alice).not.toBe(bob);
    expect(listed!.out).not.toContain('NOT YOURS TO DECIDE');
    expect(call('gv.outcomes_pull')[0]).toMatchObject({ pulled: 1, countersigned: 1, refused: 0 });
    expect(after).toMatchObject({ provisional: false, countersigned: true, awaiting: false });
    expect(walk.all('gate org verify')[0]!.out).toMatch(/^ok: \d+ events/);
  }, 300_000);
});
