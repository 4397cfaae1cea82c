import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/sign-in.js';
import { guideCommands, Walkthrough } from '../harness/walkthrough.js';

/**
 * docs/guide-question.md, run as written (issue 35, section 3): an agent's question routed to
 * people, answered by Ada in the console, promoted by Bob; the agent reads it answered. Only what
 * a person supplies is substituted (see test/harness/walkthrough.ts); in the console, Ada signs in
 * and types her answer in the box of the question marked "for you".
 */
const PASSWORD = 'correct horse battery staple';
const ADA = 'ada.lovelace@example.com';
const BOB = 'bob@example.com';
const WORDS = 'Yes: renewed through 2027, signed in October.';

let walk: Walkthrough | undefined;
afterAll(async () => {
  await walk?.close();
});

describe('guide: a question answered by a person', () => {
  it('pasted in order, ends with the agent reading its question answered in Ada’s words', async () => {
    const port = await freePort();
    walk = new Walkthrough({
      ports: { '8480': port },
      password: PASSWORD,
      ready: () => new RegExp(`^gate listening on http://127\\.0\\.0\\.1:${port} `),
      signer: () => BOB,
      printed: (name, _value, ran) => {
        if (name !== 'ANSWER') return undefined;
        const items = ran.at(-1)!.json.result.items as Array<{ artifact_id: string; kind: string }>;
        return items.find((i) => i.kind === 'answer')?.artifact_id;
      },
      browse: async (address, page) => {
        // Ada signs in at the console, then opens Questions and answers the one for her.
        await page.goto(address);
        await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Not signed in.');
        await Promise.all([page.waitForURL((url) => url.pathname === '/oauth/authorize'), page.click('#sign-in')]);
        await page.fill('#email', ADA);
        await page.fill('#password', PASSWORD);
        await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
        await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Signed in as') === true);
        await page.goto(address);
        const mine = page.locator('section[aria-label=Questions] ol.questions li').first();
        await mine.waitFor();
        expect(await mine.locator('.tag').innerText()).toBe('for you');
        expect(await mine.locator('.question-text').innerText()).toContain('west wing lease');
        await mine.locator('textarea[name=answer]').fill(WORDS);
        await mine.getByRole('button', { name: 'Answer' }).click();
        await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.includes('is held until a reviewer promotes it') === true);
      },
    });
    await walk.run(guideCommands('docs/guide-question.md', 'question'));

    const question = walk.env['QUESTION'];
    const reads = walk.ran.filter((r) => r.command.includes('"method":"gv.question"')).map((r) => r.json.result);
    expect(reads).toHaveLength(2);
    expect(reads[0]).toMatchObject({ question, state: 'with_people', reason: 'no_crew', minutes_left: 10080, answers: [] });
    const signed = walk.all('gate sign ').map((r) => r.json);
    expect(signed.map((s) => [s.artifact_id, s.state, s.class])).toEqual([
      [question, 'ACTIVE', 'human'],
      [walk.env['ANSWER'], 'ACTIVE', 'human'],
    ]);
    expect(reads[1]).toMatchObject({ question, state: 'answered' });
    expect(reads[1].person_answer).toMatchObject({ artifact_id: walk.env['ANSWER'] });
    expect(JSON.parse(reads[1].person_answer.body)).toMatchObject({ format: 'answer/1', answer: WORDS });
  }, 180_000);
});
