import { afterEach, describe, expect, it } from 'vitest';
import { GateClient, GateClientError } from '@gate/client';
import { HostileHttp, idOf } from '../harness/hostile-server.js';

let server: HostileHttp | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/**
 * -32002, -32012 and -32013: the protocol leaves their meaning open and this gate never answers
 * them (docs/requests.md, "Error codes the protocol leaves open"), but another gate may: the client still
 * reads them by rule 4 of docs/protocol.md#client-transport-rules, keeping the code and data for the caller.
 */
describe('the error codes this gate never sends, as the client reads them', () => {
  for (const [code, kind] of [[-32002, 'request_too_large'], [-32012, 'refused'], [-32013, 'refused']] as const) {
    it(`${code} is ${kind}`, async () => {
      server = await HostileHttp.start((_req, res, body) => {
        const id = idOf(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: 'refused elsewhere', data: { reason: 'other_gate' } } }));
      });
      const client = new GateClient({ transport: 'rpc', baseUrl: server.url, allowPlainHttpLoopback: true });
      const error = await client.call('gv.ping').then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(GateClientError);
      expect(error).toMatchObject({ kind, code, data: { reason: 'other_gate' } });
      await client.close();
    });
  }
});
