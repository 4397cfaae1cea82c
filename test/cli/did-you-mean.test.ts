import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, tempHome } from '../harness/gate-process.js';
import { closestName } from '../../src/cli/did-you-mean.js';

/** `gate ARGS` as a person runs it, on a pipe, with COLUMNS as a terminal of that width sets it. */
const gate = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, COLUMNS: '80', ...env } });

describe('did you mean (issue 35)', () => {
  it("a mistyped command says the close one, as one sentence, and exits 3 (bad argument)", () => {
    const top = gate(['sgin']);
    expect(top.status).toBe(3);
    expect(top.stderr).toBe("error: unknown command 'sgin'. Did you mean 'sign'?\n(gate --help shows its usage)\n");
    const nested = gate(['org', 'peple']);
    expect(nested.status).toBe(3);
    expect(nested.stderr).toBe("error: unknown command 'peple'. Did you mean 'people'?\n(gate org --help shows its usage)\n");
    const deeper = gate(['org', 'people', 'lsit']);
    expect(deeper.status).toBe(3);
    expect(deeper.stderr).toContain("error: unknown command 'lsit'. Did you mean 'list'?");
    const option = gate(['grant', 'list', '--jsno']);
    expect(option.status).toBe(3);
    expect(option.stderr).toContain("error: unknown option '--jsno'. Did you mean '--json'?");
  });

  it('a mistyped verb is refused before any call: no gate is needed to hear it (exit 3, not 2)', () => {
    const home = tempHome();
    const call = gate(['call', 'gv.promte', '{}', '--home', home]);
    expect(call.status).toBe(3);
    expect(call.stderr).toBe('gate call: unknown verb gv.promte: did you mean gv.promote?\n');
    const far = gate(['call', 'gv.nothing_like_it', '--home', home]);
    expect(far.status).toBe(3);
    expect(far.stderr).toBe('gate call: unknown verb gv.nothing_like_it: gate call gv.describe lists the verbs this gate serves\n');
    const operator = gate(['operator', 'call', 'gv.grnat', '--key', '/nonexistent', '--home', home]);
    expect(operator.status).toBe(3);
    expect(operator.stderr).toBe('gate operator call: unknown verb gv.grnat: did you mean gv.grant?\n');
    // A verb the gate serves goes on to the socket: here, no gate answers (2).
    expect(gate(['call', 'gv.promote', '{}', '--home', home]).status).toBe(2);
  });

  it('closestName suggests only a near, unambiguous name', () => {
    expect(closestName('gv.promte', ['gv.promote', 'gv.demote'])).toBe('gv.promote');
    expect(closestName('sgin', ['sign', 'serve'])).toBe('sign');
    expect(closestName('gv.x', ['gv.a', 'gv.b'])).toBeUndefined();
    expect(closestName('zzz', ['sign'])).toBeUndefined();
  });
});
