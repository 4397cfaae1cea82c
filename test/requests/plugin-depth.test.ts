import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../harness/gate-process.js';
import { PluginProcess } from '../harness/plugin-process.js';

// The plugin tier reads stdio through the SDK, not through the gate's doors; the null check
// carries the same depth bound, so deep arguments are refused by name there too.

let plugin: PluginProcess;
beforeAll(async () => {
  plugin = await PluginProcess.start({ home: tempHome() });
});
afterAll(async () => {
  await plugin?.stop();
});

const nested = (levels: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('gate plugin: deep tool arguments', () => {
  it('4,000 levels are refused -32602 naming the limit, not an internal error', async () => {
    const error = await plugin.refusal('remember', { content: 'x', content_type: 'memory', source_uri: 's', x: nested(4000) });
    expect(error).toMatchObject({ code: -32602, data: { limit: 64 } });
  });
});
