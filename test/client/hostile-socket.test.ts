import { afterEach, describe, expect, it } from 'vitest';
import { GateClient, GateClientError } from '@gate/client';
import { HostileSocket, idOf } from '../harness/hostile-server.js';

let server: HostileSocket | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const client = (path: string) => new GateClient({ transport: 'socket', socketPath: path, scope: 'knowledge', deadlineMs: 500 });
const failure = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (error: unknown) => error);
  expect(e).toBeInstanceOf(GateClientError);
  return e as GateClientError;
};

describe('the socket transport against hostile servers', () => {
  it('reads up to the first newline only', async () => {
    server = await HostileSocket.start((s, line) => s.write(`${JSON.stringify({ jsonrpc: '2.0', id: idOf(line), result: { ok: 1 } })}\n{"garbage"`));
    expect(await client(server.path).call('gv.ping')).toEqual({ ok: 1 });
  });

  it('silence is a timeout; a write is then outcome_unknown', async () => {
    server = await HostileSocket.start(() => undefined);
    expect(await failure(client(server.path).call('gv.ping'))).toMatchObject({ kind: 'timeout', outcome_unknown: false });
    const w = await failure(client(server.path).call('gv.complete', { workarea: 'w' }));
    expect(w).toMatchObject({ kind: 'timeout', outcome_unknown: true });
  });

  it('a reply line over 1 MiB is invalid', async () => {
    server = await HostileSocket.start((s) => s.write('{"pad":"' + 'x'.repeat(1024 * 1024 + 10)));
    expect((await failure(client(server.path).call('gv.ping'))).kind).toBe('invalid_response');
  });

  it('duplicate keys and non-JSON lines are invalid', async () => {
    server = await HostileSocket.start((s, line) => s.write(`{"jsonrpc":"2.0","id":${idOf(line)},"result":{"b":1,"b":1}}\n`));
    expect((await failure(client(server.path).call('gv.ping'))).message).toContain('duplicate key');
    await server.stop();
    server = await HostileSocket.start((s) => s.write('<html>\n'));
    expect((await failure(client(server.path).call('gv.ping'))).kind).toBe('invalid_response');
  });

  it('a closed connection before the reply is transport; no socket is transport and not sent', async () => {
    server = await HostileSocket.start((s) => s.destroy());
    expect(await failure(client(server.path).call('gv.complete', { workarea: 'w' }))).toMatchObject({ kind: 'transport', outcome_unknown: true });
    expect(await failure(client('/nonexistent/gate.sock').call('gv.complete', { workarea: 'w' }))).toMatchObject({ kind: 'transport', outcome_unknown: false });
  });
});
