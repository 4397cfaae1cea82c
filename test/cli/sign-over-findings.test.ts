import { beforeAll, describe, expect, it } from 'vitest';
import { addPersonWithCli } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { gateCommand } from '../harness/gate-command.js';

/**
 * `gate sign` approving a row the scanner held: the findings are listed with where they
 * are, and the approval goes only as a second, deliberate act (--over-findings beside --yes
 * in a script); a plain --yes signs nothing and says why.
 */
const PASSWORD = 'a password for signing over findings';

const run = gateCommand;

const { gate, keys: { agent }, ingestId } = useGate({
  kind: 'in-process',
  env: { GATE_SPACES_MAIN_POLICY: 'human', GATE_REVIEW_QUORUM_PROFILE: 'standard' },
  keys: { agent: 'agent' },
});
beforeAll(async () => {
  await addPersonWithCli(gate, 'careful@example.test', PASSWORD, 'reviewer');
});

const signAs = (id: string, extra: string[] = []) => run(['sign', id, '--home', gate.home, '--email', 'careful@example.test', '--password-stdin', '--yes', ...extra], `${PASSWORD}\n`);
const stateOf = async (id: string) => (await gate.socket('gv.approval', { artifact_id: id })).result.state as string;

const ingest = (content: string) => ingestId(agent, { content, source_uri: 'test://over-findings', workarea: 'sign' });

describe('gate sign over findings', () => {
  // A right-to-left override hides what a file name really ends with: a high finding, held L1B.
  const content = `Release notes ${Date.now()}: download the installer report\u202Efdp.exe and run it on every build host.`;

  it('--yes alone lists the findings with their places and signs nothing (exit 3)', async () => {
    const id = await ingest(content);
    expect(await stateOf(id)).toBe('L1B_FLAGGED');
    const refused = await signAs(id, ['--promote']);
    expect(refused.code, refused.err).toBe(3);
    expect(refused.err).toMatch(/held this row for 1 finding:\n {2}1\. unicode\.[\w.-]+ \(high\) at characters \d+-\d+: /);
    expect(refused.err).toContain('--over-findings');
    expect(await stateOf(id)).toBe('L1B_FLAGGED');
    // The body was still shown whole before anything was asked, its hidden character drawn
    // (written as is, the override would turn the terminal's line around).
    expect(refused.out).toContain('download the installer report⟨U+202E⟩fdp.exe and run it on every build host.');
    expect(refused.out).not.toContain('\u202E');
  });

  it('--over-findings with --yes approves: the disposition is recorded', async () => {
    const id = await ingest(`${content} Second copy.`);
    const signed = await signAs(id, ['--over-findings']);
    expect(signed.code, signed.err).toBe(0);
    expect(await stateOf(id)).not.toBe('L1B_FLAGGED');
    const why = await gate.socket('gv.why', { artifact_id: id });
    expect(why.result.events.at(-1)).toMatchObject({ type: 'disposition', decision: 'approve', leaves: 'L1B_FLAGGED' });
  });

  it('a row without findings needs no second step', async () => {
    const id = await ingest(`A plain note ${Date.now()}: the staging database moved to the second rack.`);
    expect(await stateOf(id)).toBe('L1_SCANNED');
    const signed = await signAs(id);
    expect(signed.code, signed.err).toBe(0);
  });
});
