import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';
import { spaceTable } from '../../src/cli/space-command.js';
import { gateCommand } from '../harness/gate-command.js';

const run = gateCommand;

const { gate, keys: { agent }, ingestId } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });
beforeAll(async () => {
  expect((await gate.socket('gv.space_create', { name: 'team', policy: 'human', owner: 'ops@example.test' })).error).toBeUndefined();
  await ingestId(agent, { space: 'main', content: 'a claim for the space list', source_uri: 'test://spaces', workarea: 's' });
});

describe('gate space list (issue 35)', () => {
  it("lists each space with its policy, rows and owner, as gv.spaces answers the operator; --json prints that answer", async () => {
    const json = await run(['space', 'list', '--json', '--home', gate.home]);
    expect(json.code, json.err).toBe(0);
    const answer = JSON.parse(json.out);
    expect(answer).toEqual((await gate.socket('gv.spaces', {})).result);
    const team = answer.spaces.find((s: { name: string }) => s.name === 'team');
    expect(team).toEqual({ name: 'team', owner: 'ops@example.test', policy: 'human', artifacts: 0 });
    const main = answer.spaces.find((s: { name: string }) => s.name === 'main');
    expect(main.artifacts).toBe(1);

    const listed = await run(['space', 'list', '--home', gate.home]);
    expect(listed.code, listed.err).toBe(0);
    const lines = listed.out.trimEnd().split('\n').map((l) => l.split(/ {2,}/));
    expect(lines[0]).toEqual(['SPACE', 'POLICY', 'ROWS', 'OWNER']);
    expect(lines).toContainEqual(['team', 'human', '0', 'ops@example.test']);
    expect(lines).toContainEqual(['main', main.policy, '1', main.owner]);
    expect(lines).toHaveLength(answer.spaces.length + 1);
  });

  it('says how to create one when there is none; exits 2 with no gate', async () => {
    expect(spaceTable([])).toBe('No spaces yet: create one with gate space create NAME --policy human|model|auto\n');
    const none = await run(['space', 'list', '--home', join(mkdtempSync(join(tmpdir(), 'gate-none-')), 'home')]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^gate space list: /);
  });
});
