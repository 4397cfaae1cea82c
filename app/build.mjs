// Builds the consoles: app/src (TypeScript, Preact) bundled by esbuild, the gate's console
// into dist/app and the organization's (app/src/org) into dist/app-org, with a content hash
// in every asset's name so a browser never runs a stale bundle beside a new shell. Each shell
// is copied with the hashed names written in; nothing inline, so the strict content policy
// (script-src 'self', style-src 'self') holds. Both shells name the same icon (app/favicon.svg,
// hashed like the rest), so a browser asks no /favicon.ico the gate does not have.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const here = dirname(new URL(import.meta.url).pathname);

/** One console: `entry` and the shared stylesheet bundled into `out`/assets, `shell` written to `out`/index.html. */
async function bundleConsole({ name, entry, shell, out }) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: [entry, join(here, 'src', 'console.css')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: join(out, 'assets'),
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const entryName = basename(entry).replace(/\.tsx?$/, '');
  const script = outputs.find((n) => n.startsWith(`${entryName}-`) && n.endsWith('.js'));
  const style = outputs.find((n) => n.startsWith('console-') && n.endsWith('.css'));
  if (script === undefined || style === undefined) throw new Error(`the ${name} build made ${outputs.join(', ')}`);
  const iconBytes = readFileSync(join(here, 'favicon.svg'));
  const icon = `favicon-${createHash('sha256').update(iconBytes).digest('hex').slice(0, 8).toUpperCase()}.svg`;
  writeFileSync(join(out, 'assets', icon), iconBytes);
  outputs.push(icon);
  const page = readFileSync(shell, 'utf8')
    .replace('{{script}}', `/app/assets/${script}`)
    .replace('{{style}}', `/app/assets/${style}`)
    .replace('{{icon}}', `/app/assets/${icon}`);
  writeFileSync(join(out, 'index.html'), page);

  let gzipped = 0;
  for (const file of outputs) gzipped += gzipSync(readFileSync(join(out, 'assets', file))).length;
  gzipped += gzipSync(page).length;
  writeFileSync(join(out, 'size.json'), JSON.stringify({ files: outputs, gzipped_bytes: gzipped }, null, 2));
  if (process.argv.includes('--size')) console.log(`${name}: ${outputs.join(', ')}; ${(gzipped / 1024).toFixed(1)} KB gzipped`);
}

await bundleConsole({ name: 'console', entry: join(here, 'src', 'main.tsx'), shell: join(here, 'index.html'), out: resolve(here, '..', 'dist', 'app') });
await bundleConsole({ name: 'org console', entry: join(here, 'src', 'org', 'org-main.tsx'), shell: join(here, 'org-index.html'), out: resolve(here, '..', 'dist', 'app-org') });
