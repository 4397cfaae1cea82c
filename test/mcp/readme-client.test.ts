import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

/**
 * The client snippet of docs/tool-endpoint.md, run as it stands (node, from the checkout so its imports
 * resolve) against a real gate: the official client negotiates and its calls pass its own
 * output-schema check. A client with default settings is refused, as the page says.
 */
const { gate } = useGate({ kind: 'in-process' });

function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'docs', 'tool-endpoint.md'), 'utf8');
  const marker = readme.indexOf('<!-- readme-client-snippet -->');
  expect(marker).toBeGreaterThan(0);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(marker));
  return block![1]!;
}

/**
 * A fresh node loading the MCP client is a quarter second of CPU, yet took 5.7 s at load 13,
 * and the child had 30 s in all. It runs asynchronously now: a spawnSync held this process's
 * event loop, and with it the reading of the gate's output pipes, for as long.
 */
const CHILD_MS = 150_000;
const runModule = (code: string) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, GATE_URL: gate.url }, timeout: CHILD_MS }, (error, stdout, stderr) => {
      // A child killed at the timeout has no status: it fails both tests' checks.
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, stdout, stderr });
    });
  });

describe("docs/tool-endpoint.md's MCP client snippet", () => {
  it('runs as written: lists the tools and remembers a claim through the official client', async () => {
    const out = await runModule(readmeSnippet());
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^\d+ \{/);
    expect(out.stdout).toMatch(/artifact_id: 'sha256:[0-9a-f]{64}'/);
    expect(out.stdout).toMatch(/state: 'L1_SCANNED'/);
  }, CHILD_MS + 10_000);

  it('without negotiation the default client is refused -32022, as the page says', async () => {
    const code = readmeSnippet().replace(", { versionNegotiation: { mode: 'auto' } }", '');
    const out = await runModule(code);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/32022|protocol version/i);
  }, CHILD_MS + 10_000);
});
