import { describe, expect, it } from 'vitest';
import { crewSettings, hello, makeRunner, newInstance } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

async function sayHello(key: string, fields: Record<string, unknown>) {
  server.clock.advance(1001);
  const answer = await server.rpc(key, 'gv.runner_hello', hello(fields));
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
}

const stateOf = async (runner: string) => (await server.socket('gv.runners', { runner })).result.runners[0].token;

describe('gv.runner_token', () => {
  it('no_token before one is set, and after it is cleared', async () => {
    const runner = await makeRunner(server);
    await sayHello(runner.key, { instance: newInstance() });
    expect((await server.rpc(runner.key, 'gv.runner_token')).error?.data).toEqual({ reason: 'no_token' });
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-one' });
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: null });
    expect((await server.rpc(runner.key, 'gv.runner_token')).error?.data?.reason).toBe('no_token');
  });

  it('serves the token once, with its version and origin, to the one instance heard; then already_served', async () => {
    const runner = await makeRunner(server, { base_url: 'https://models.example.com/v1' });
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-secret-1' });
    expect(await stateOf(runner.keyId)).toBe('waiting');
    expect((await server.rpc(runner.key, 'gv.runner_token')).error?.data?.reason).toBe('not_heard');
    const instance = newInstance();
    expect((await sayHello(runner.key, { instance })).token).toBe('waiting');
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance: newInstance() }));
    expect((await server.rpc(runner.key, 'gv.runner_token')).error?.data).toEqual({ reason: 'two_instances', instances: 2 });
    server.clock.advance(121_000);
    await sayHello(runner.key, { instance });
    const served = await server.rpc(runner.key, 'gv.runner_token');
    expect(served.result).toEqual({ version: 1, token: 'sk-secret-1', origin: 'https://models.example.com' });
    expect(server.journal('runner-token-served').at(-1)!.data).toEqual({ runner: runner.keyId, version: 1, instance });
    expect((await server.rpc(runner.key, 'gv.runner_token')).error?.data).toEqual({ reason: 'already_served', version: 1 });
    expect(await stateOf(runner.keyId)).toBe('served');
    // Served means gone from the gate: no sealed copy is kept.
    expect(server.gate.db.prepare('SELECT sealed FROM runner_token_vault WHERE runner = ?').pluck().get(runner.keyId)).toBeNull();
  });

  it('the default provider’s token has origin null', async () => {
    const runner = await makeRunner(server);
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-default' });
    await sayHello(runner.key, { instance: newInstance() });
    expect((await server.rpc(runner.key, 'gv.runner_token')).result).toEqual({ version: 1, token: 'sk-default', origin: null });
  });

  it('a hello holding it within 600 s makes it held; a later hello that no longer holds it makes it lost', async () => {
    const runner = await makeRunner(server);
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-held' });
    const instance = newInstance();
    await sayHello(runner.key, { instance });
    await server.rpc(runner.key, 'gv.runner_token');
    server.clock.advance(500_000);
    expect((await sayHello(runner.key, { instance, token: { version: 1, held: true } })).token).toBe('held');
    // Long after 600 s it stays held while the runner holds it.
    server.clock.advance(700_000);
    expect((await sayHello(runner.key, { instance, token: { version: 1, held: true } })).token).toBe('held');
    expect((await sayHello(runner.key, { instance, token: { version: 1, held: false } })).token).toBe('lost');
  });

  it('not acknowledged within 600 s, it is lost; a late acknowledgement changes nothing', async () => {
    const runner = await makeRunner(server);
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-lost' });
    const instance = newInstance();
    await sayHello(runner.key, { instance });
    await server.rpc(runner.key, 'gv.runner_token');
    server.clock.advance(599_000);
    expect(await stateOf(runner.keyId)).toBe('served');
    server.clock.advance(2_000);
    expect(await stateOf(runner.keyId)).toBe('lost');
    expect((await sayHello(runner.key, { instance, token: { version: 1, held: true } })).token).toBe('lost');
    // Setting it again starts over.
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-again' });
    expect(await stateOf(runner.keyId)).toBe('waiting');
  });

  it('an acknowledgement by an instance that did not take it, or of another version, does not count', async () => {
    const runner = await makeRunner(server);
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-x' });
    const instance = newInstance();
    await sayHello(runner.key, { instance });
    await server.rpc(runner.key, 'gv.runner_token');
    expect((await sayHello(runner.key, { instance, token: { version: 2, held: true } })).token).toBe('served');
    server.clock.advance(121_000);
    expect((await sayHello(runner.key, { instance: newInstance(), token: { version: 1, held: true } })).token).toBe('served');
  });

  it('a sealed token that no longer opens is unreadable: said in the hello, refused by gv.runner_token', async () => {
    const runner = await makeRunner(server);
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-damaged' });
    const sealed = server.gate.db.prepare('SELECT sealed FROM runner_token_vault WHERE runner = ?').pluck().get(runner.keyId) as Buffer;
    const damaged = Buffer.from(sealed);
    damaged[damaged.length - 1] ^= 0xff;
    server.gate.db.prepare('UPDATE runner_token_vault SET sealed = ? WHERE runner = ?').run(damaged, runner.keyId);
    expect((await sayHello(runner.key, { instance: newInstance() })).token).toBe('unreadable');
    expect((await server.rpc(runner.key, 'gv.runner_token')).error?.data).toEqual({ reason: 'unreadable', version: 1 });
    expect(server.journal('runner-token-served').filter((e) => e.data['runner'] === runner.keyId)).toHaveLength(0);
  });
});
