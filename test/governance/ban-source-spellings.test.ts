import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { toolCall } from '../harness/mcp-calls.js';
import { PluginProcess } from '../harness/plugin-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

const BAN = 'https://docs.example/private';

/** Each way of writing the same place the issue names, applied to `https://docs.example/private/x`. */
const SPELLINGS: Record<string, (u: { lead: string; userinfo: string; host: string; slash: string }) => void> = {
  userinfo: (u) => void (u.userinfo = 'u:p@'),
  'leading tab': (u) => void (u.lead = `\t${u.lead}`),
  'leading space': (u) => void (u.lead = ` ${u.lead}`),
  'trailing host dot': (u) => void (u.host = 'docs.example.'),
  'double slash': (u) => void (u.slash = '//'),
};

/** Every non-empty combination of the spellings, as [names, uri]. */
function spellings(): Array<[string, string]> {
  const names = Object.keys(SPELLINGS);
  const all: Array<[string, string]> = [];
  for (let mask = 1; mask < 1 << names.length; mask++) {
    const u = { lead: '', userinfo: '', host: 'docs.example', slash: '/' };
    const used = names.filter((_, i) => mask & (1 << i));
    for (const name of used) SPELLINGS[name]!(u);
    all.push([used.join(' + '), `${u.lead}https://${u.userinfo}${u.host}${u.slash}private/x`]);
  }
  return all;
}

const skillZip = () => readFileSync(join(ROOT, 'fixtures/bundles/skill-valid.zip')).toString('base64');
const mapManifest = (project: string) => ({ map_version: 'project_map/v1', project, produced_by: { name: 'mapper', version: '1.0.0' }, members: [], nodes: [], edges: [] });

/** One write at each door that takes a source_uri, answering its error (or undefined when admitted). */
const DOORS: Record<string, (sourceUri: string) => Promise<{ code: number; data?: any } | undefined>> = {
  'gv.ingest': async (source_uri) => (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('spelled'), workarea: 'tests/ban-spelling', kind: 'memory', source_uri })).error,
  'gv.ingest_bundle': async (source_uri) => (await gate.rpc(agent.key, 'gv.ingest_bundle', { content: skillZip(), source_uri, workarea: 'tests/ban-spelling' })).error,
  'gv.ingest_map': async (source_uri) => (await gate.rpc(agent.key, 'gv.ingest_map', { manifest: mapManifest(uniqueText('map')), source_uri, workarea: 'tests/ban-spelling' })).error,
  'gate.remember (/mcp)': async (source_uri) => {
    const { answer } = await toolCall(gate, 'remember', { content: uniqueText('spelled tool'), content_type: 'memory', source_uri, workarea: 'tests/ban-spelling' }, agent.key);
    return answer.result?.isError ? answer.result.structuredContent.error : answer.error;
  },
};

beforeAll(async () => {
  const stood = await gate.socket('gv.ban', { kind: 'source', subject: BAN, reason: 'private pages' });
  expect(stood.result).toMatchObject({ subject: BAN, changed: true });
});

describe('a source ban holds on every spelling of the same place', () => {
  it.each(Object.keys(DOORS))('%s refuses every spelling and every combination of them -32009', async (door) => {
    for (const [names, uri] of spellings()) {
      expect(await DOORS[door]!(uri), `${door}: ${names}: ${JSON.stringify(uri)}`).toMatchObject({ code: -32009, data: { kind: 'source', subject: BAN } });
    }
  });

  it('the plugin tier refuses them when it forwards', async () => {
    const plugin = await PluginProcess.start({ home: gate.home, negotiate: true });
    try {
      for (const [names, uri] of spellings().filter((_, i) => i % 4 === 0 || i === 30)) {
        expect(await plugin.refusal('remember', { content: uniqueText('plugin spelled'), content_type: 'memory', source_uri: uri }), names).toMatchObject({ code: -32009 });
      }
    } finally {
      await plugin.stop();
    }
  });

  it('a ban spelled any of those ways is the same ban', async () => {
    for (const [names, uri] of spellings()) {
      const prefix = uri.replace(/private\/x$/, 'private/');
      expect((await gate.socket('gv.ban', { kind: 'source', subject: prefix, reason: 'again' })).result, names).toMatchObject({ subject: BAN, changed: false });
    }
  });

  it('the same places beside it are still admitted', async () => {
    for (const uri of ['https://docs.example.evil/private/x', 'https://u:p@docs.example/public/x', '\thttps://docs.example/privateer', 'https://docs.example/%2Fprivate/x']) {
      expect(await DOORS['gv.ingest']!(uri), JSON.stringify(uri)).toBeUndefined();
    }
  });

  it.each(Object.keys(DOORS))('%s refuses a source_uri that names a scheme and does not parse, -32602 naming it', async (door) => {
    for (const uri of ['https://[docs.example/private/x', 'https://docs example/private/x', 'http://docs.example:99999/private', 'https://']) {
      expect(await DOORS[door]!(uri), `${door}: ${JSON.stringify(uri)}`).toMatchObject({ code: -32602, data: { field: 'source_uri', reason: 'source_uri_unparseable' } });
    }
  });

  it('gv.ban refuses a prefix that names a scheme and does not parse', async () => {
    expect((await gate.socket('gv.ban', { kind: 'source', subject: 'https://[docs.example/private', reason: 'x' })).error).toMatchObject({ code: -32602, data: { field: 'subject' } });
  });
});
