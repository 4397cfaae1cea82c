import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../harness/sign-in.js';
import { guideCommands, Walkthrough } from '../harness/walkthrough.js';

/**
 * docs/guide-crew.md, run as written (issue 35, section 3): a crew sheet promoted, a runner key
 * set up and assigned the crew, `gate runner` hosting it, a question routed to the crew and
 * answered by the crew's command, promoted; the question reads answered. Only what a person
 * supplies is substituted (see test/harness/walkthrough.ts), and the work directory is the test's.
 */
let walk: Walkthrough | undefined;
afterAll(async () => {
  await walk?.close();
});

describe('guide: a crew with gate runner', () => {
  it('pasted in order, ends with the crew’s answer promoted and the question answered', async () => {
    const port = await freePort();
    walk = new Walkthrough({
      ports: { '8480': port },
      paths: { '/tmp/gate-crew-work': join(mkdtempSync(join(tmpdir(), 'guide-crew-')), 'work') },
      password: 'unused',
      ready: (command) =>
        command.startsWith('gate runner ') ? /crew keys taken/ : new RegExp(`^gate listening on http://127\\.0\\.0\\.1:${port} `),
      printed: (name, _value, ran) => {
        const last = ran.at(-1)?.json?.result;
        if (name === 'RUNNER_ID') return last.key_id;
        if (name === 'ANSWER') return (last.items as Array<{ artifact_id: string; kind: string }>).find((i) => i.kind === 'answer')?.artifact_id;
        return undefined;
      },
    });
    await walk.run(guideCommands('docs/guide-crew.md', 'crew'));

    const results = (prefix: string) => walk!.all(prefix).map((r) => r.json.result);
    expect(results('gate call gv.promote').map((r) => r.state)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    const runners = results('gate call gv.runners')[0].runners;
    expect(runners[0]).toMatchObject({ label: 'laptop', heard: true, assignments: [{ space: 'build', slots: ['build/lead/1'] }] });
    expect(['issued', 'held']).toContain(runners[0].assignments[0].keys);
    const [routed, answered] = results('gate call gv.question');
    expect(routed).toMatchObject({ question: walk.env['QUESTION'], state: 'with_crew', crew: 'build' });
    expect(answered).toMatchObject({ question: walk.env['QUESTION'], state: 'answered' });
    expect(answered.answers[0].artifact_id).toBe(walk.env['ANSWER']);
    expect(JSON.parse(answered.answers[0].body)).toMatchObject({ format: 'answer/1', answer: 'Builds use Node 20 (answered by build/lead/1 on claude-sonnet-4-5).' });
  }, 240_000);
});
