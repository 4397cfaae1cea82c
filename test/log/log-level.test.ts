import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { socketRpc, tempHome } from '../harness/gate-process.js';
import { parsed, serveWith, until } from './log-lines.js';

describe('the log level: --log-level wins over GATE_LOG_LEVEL, which wins over [log] level', () => {
  it('--log-level warn drops info and debug lines, whatever the environment says', async () => {
    const gate = await serveWith(['--log-level', 'warn'], { GATE_LOG_LEVEL: 'debug' });
    try {
      const socket = join(gate.home, 'gate.sock');
      expect((await socketRpc(socket, 'gv.no_such_verb')).error?.code).toBe(-32601);
      expect((await socketRpc(socket, 'gv.ping')).result).toBeDefined();
    } finally {
      await gate.stop();
    }
    // Start-up, the refusal (info), the served ping (debug) and the shutdown lines are all below warn.
    expect(parsed(gate.stderr).filter((l) => l.level !== 'warn' && l.level !== 'error')).toEqual([]);
  });

  it('[log] level in gate.toml turns on the request lines', async () => {
    const home = tempHome();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'gate.toml'), '[log]\nlevel = "debug"\nformat = "json"\n');
    const gate = await serveWith([], {}, home);
    try {
      await socketRpc(join(home, 'gate.sock'), 'gv.ping');
      await until(() => parsed(gate.stderr).some((l) => l.msg === 'request'), 'the ping');
      expect(parsed(gate.stderr).find((l) => l.msg === 'request')).toMatchObject({ level: 'debug', door: 'socket', verb: 'gv.ping' });
    } finally {
      await gate.stop();
    }
  });

  it('at the default level a served request writes nothing, a refused one a line at info', async () => {
    const gate = await serveWith([]);
    try {
      const socket = join(gate.home, 'gate.sock');
      await socketRpc(socket, 'gv.ping');
      await socketRpc(socket, 'gv.no_such_verb');
      await until(() => parsed(gate.stderr).some((l) => l.msg === 'request'), 'the refusal');
    } finally {
      await gate.stop();
    }
    const lines = parsed(gate.stderr).filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', code: -32601 });
  });

  it('an unknown level is refused at start, by name', async () => {
    await expect(serveWith([], { GATE_LOG_LEVEL: 'loud' })).rejects.toThrow(/log\.level/);
  });
});
