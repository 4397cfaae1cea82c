import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GateProcess, ROOT } from '../harness/gate-process.js';

/**
 * The README's client snippet, run as it stands (node, from the checkout so its imports
 * resolve) against a real gate: the official client negotiates and its calls pass its own
 * output-schema check. A client with default settings is refused, as the README says.
 */
let gate: GateProcess;
beforeAll(async () => {
  gate = await GateProcess.start();
});
afterAll(async () => {
  await gate?.stop();
});

function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const marker = readme.indexOf('<!-- readme-client-snippet -->');
  expect(marker).toBeGreaterThan(0);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(marker));
  return block![1]!;
}

const runModule = (code: string) =>
  spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, GATE_URL: gate.url }, timeout: 30_000 });

describe("the README's MCP client snippet", () => {
  it('runs as written: lists the tools and remembers a claim through the official client', () => {
    const out = runModule(readmeSnippet());
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^\d+ \{/);
    expect(out.stdout).toMatch(/artifact_id: 'sha256:[0-9a-f]{64}'/);
    expect(out.stdout).toMatch(/state: 'L1_SCANNED'/);
  });

  it('without negotiation the default client is refused -32022, as the README says', () => {
    const code = readmeSnippet().replace(", { versionNegotiation: { mode: 'auto' } }", '');
    const out = runModule(code);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/32022|protocol version/i);
  });
});
