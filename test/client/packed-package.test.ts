import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

/**
 * The client as a project takes it (docs/client.md): `npm pack` of packages/client, installed
 * offline (`npm ci --offline`) into a new project outside the repository, and the agent loop of docs/client.md (read
 * from the document, so the two cannot drift) run there with node against a real gate, and
 * type-checked against the package's own declarations.
 */
const run = promisify(execFile);
const PACKAGE = join(ROOT, 'packages', 'client');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const { gate, keys } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

/** The fenced block the document marks as the agent loop. */
function agentLoop(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8');
  const m = /<!-- agent-loop:[^>]*-->\n```js\n([\s\S]*?)\n```/.exec(doc);
  if (m === null) throw new Error('docs/client.md has no block marked <!-- agent-loop: … -->');
  return `${m[1]}\n`;
}

let project: string;
let tarball: string;
let packed: { name: string; filename: string; files: { path: string }[] };

beforeAll(async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'gate-client-package-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: PACKAGE });
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  tarball = join(scratch, packed.filename);
  project = join(scratch, 'agent');
  mkdirSync(project);
  // A project that takes the tarball, with a lockfile as any project has: each dependency of the
  // client pinned as the repository's own lockfile pins it, so the install fetches tarballs by
  // their integrity from the npm cache the repository's install filled, and nothing from the
  // network (npm resolves a range only from a registry's package document, which an install
  // from a lockfile never fetched).
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
  const rootLock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
  const spec = `file:${packed.filename}`;
  const lock = {
    name: 'agent',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'agent', version: '1.0.0', dependencies: { '@gate/client': spec } },
      'node_modules/@gate/client': { version: manifest.version, resolved: spec, dependencies: manifest.dependencies },
      ...Object.fromEntries(
        Object.keys(manifest.dependencies).map((name) => {
          const { version, resolved, integrity, license } = rootLock.packages[`node_modules/${name}`]!;
          return [`node_modules/${name}`, { version, ...(resolved ? { resolved } : {}), integrity, license }];
        }),
      ),
    },
  };
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'agent', version: '1.0.0', private: true, type: 'module', dependencies: { '@gate/client': spec } }));
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock));
  copyFileSync(tarball, join(project, packed.filename));
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project }).catch((error: { stderr?: string }) => {
    throw new Error(`npm ci --offline of the packed client failed (has the repository's npm install run, filling the npm cache?):\n${error.stderr ?? String(error)}`);
  });
}, 120_000);

afterAll(() => {
  if (project !== undefined) rmSync(join(project, '..'), { recursive: true, force: true });
});

describe('the packed client package', () => {
  it('holds its built ESM and types and a manifest with no install script', () => {
    expect(packed.name).toBe('@gate/client');
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.d.ts');
    expect(paths).toContain('dist/verb-signatures.d.ts');
    expect(paths.filter((p) => p !== 'package.json' && p !== 'README.md' && !/^dist\/.+\.(js|d\.ts)$/.test(p))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', '@gate', 'client', 'package.json'), 'utf8'));
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect(manifest.gypfile).toBeUndefined();
  });

  it('installs without the gate: only the client and its three dependencies, none with an install script or a native addon', () => {
    const installed = readdirSync(join(project, 'node_modules'), { withFileTypes: true })
      .flatMap((e) => (e.name.startsWith('@') ? readdirSync(join(project, 'node_modules', e.name)).map((n) => `${e.name}/${n}`) : [e.name]))
      .filter((n) => !n.startsWith('.'))
      .sort();
    expect(installed).toEqual(['@gate/client', '@humanwhocodes/momoa', '@noble/ed25519', 'undici']);
    for (const name of installed) {
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
      expect(manifest.scripts?.install ?? manifest.scripts?.postinstall ?? manifest.scripts?.preinstall, name).toBeUndefined();
      expect(existsSync(join(project, 'node_modules', name, 'binding.gyp')), name).toBe(false);
    }
  });

  it("runs docs/client.md's agent loop, twenty lines, against a real gate", async () => {
    const loop = agentLoop();
    expect(loop.trimEnd().split('\n').length).toBeLessThanOrEqual(20);
    writeFileSync(join(project, 'agent-loop.mjs'), loop);
    const { stdout } = await run(process.execPath, ['agent-loop.mjs'], { cwd: project, env: { ...process.env, GATE_URL: gate.url, GATE_KEY: keys.agent.key } });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^proposed sha256:[0-9a-f]{64}: L1_SCANNED \(quorum\)$/);
    const [first] = lines;
    const id = /sha256:[0-9a-f]{64}/.exec(first!)![0];
    expect((await gate.socket('gv.status', { artifact_id: id })).result).toMatchObject({ state: 'L1_SCANNED', workarea: 'agent/notes' });
  });

  it("type-checks the loop against the package's declarations, and refuses an answer read as the wrong type", async () => {
    writeFileSync(join(project, 'agent-loop.ts'), agentLoop());
    writeFileSync(
      join(project, 'wrong.ts'),
      `import type { VerbAnswer } from '@gate/client';\nexport const score: string = ({} as VerbAnswer<'gv.recall'>).hits[0]!.score;\n`,
    );
    const tsconfig = (files: string[]) =>
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] },
        files,
      });
    writeFileSync(join(project, 'tsconfig.json'), tsconfig(['agent-loop.ts']));
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project });
    writeFileSync(join(project, 'tsconfig.json'), tsconfig(['wrong.ts']));
    const refused = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    expect(refused).toMatch(/wrong\.ts\(2,14\): error TS2322: Type 'number' is not assignable to type 'string'/);
  });
});
