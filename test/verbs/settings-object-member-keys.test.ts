import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, tempHome } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

// Names an object answers for itself: looked up as properties, each would find a member, not "no such key".
const MEMBER_KEYS = ['server.constructor', 'auth.toString', 'server.__proto__', 'server.hasOwnProperty', 'constructor.name', '__proto__.port', 'toString.length'];

const { gate } = useGate({ kind: 'in-process' });

let admin: string;

beforeAll(async () => {
  admin = (await gate.key('admin')).key;
});

/** The JSON-RPC body written by hand, so `__proto__` is sent as an own key (a JS object literal would set the prototype). */
const rawCall = async (method: string, key: string, value: unknown) => {
  const raw = `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"changes":{${JSON.stringify(key)}:${JSON.stringify(value)}}}}`;
  const res = await fetch(`${gate.url}/rpc`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: raw });
  return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } };
};

describe('settings keys that name an object member', () => {
  it.each(MEMBER_KEYS)('gv.settings_validate refuses %s as an unknown key, by name', async (key) => {
    const answer = await rawCall('gv.settings_validate', key, 1);
    expect(answer.error).toBeUndefined();
    expect(answer.result.valid).toBe(false);
    expect(answer.result.refused).toEqual([{ key, reason: expect.stringContaining('unknown key') }]);
    expect(answer.result.accepted).toEqual([]);
  });

  it.each(MEMBER_KEYS)('gv.settings_save answers -32602 naming %s, and writes nothing', async (key) => {
    const before = readFileSync(join(gate.home, 'gate.toml'), 'utf8');
    const answer = await rawCall('gv.settings_save', key, 1);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain(key);
    expect(answer.error?.data.refused).toEqual([{ key, reason: expect.stringContaining('unknown key') }]);
    expect(readFileSync(join(gate.home, 'gate.toml'), 'utf8')).toBe(before);
  });
});

describe('gate.toml naming an object member', () => {
  it.each([
    ['[server]\nconstructor = 1\n', 'unknown key server.constructor'],
    ['[auth]\ntoString = 1\n', 'unknown key auth.toString'],
    ['[constructor]\nname = 1\n', 'unknown section [constructor]'],
  ])('gate config refuses %j by name', (text, refusal) => {
    const home = tempHome();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'gate.toml'), text);
    const run = spawnSync(process.execPath, [CLI, 'config', '--home', home, '--json'], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(refusal);
  });
});
