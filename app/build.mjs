// Builds the console: app/src (TypeScript, Preact) bundled by esbuild into dist/app, with a
// content hash in every asset's name so a browser never runs a stale bundle beside a new
// shell. The shell (app/index.html) is copied with the hashed names written in; nothing inline,
// so the strict content policy (script-src 'self', style-src 'self') holds.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const here = dirname(new URL(import.meta.url).pathname);
const out = resolve(here, '..', 'dist', 'app');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: [join(here, 'src', 'main.tsx'), join(here, 'src', 'console.css')],
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
const script = outputs.find((n) => n.startsWith('main-') && n.endsWith('.js'));
const style = outputs.find((n) => n.startsWith('console-') && n.endsWith('.css'));
if (script === undefined || style === undefined) throw new Error(`the console build made ${outputs.join(', ')}`);
const shell = readFileSync(join(here, 'index.html'), 'utf8').replace('{{script}}', `/app/assets/${script}`).replace('{{style}}', `/app/assets/${style}`);
writeFileSync(join(out, 'index.html'), shell);

let gzipped = 0;
for (const name of outputs) gzipped += gzipSync(readFileSync(join(out, 'assets', name))).length;
gzipped += gzipSync(shell).length;
writeFileSync(join(out, 'size.json'), JSON.stringify({ files: outputs, gzipped_bytes: gzipped }, null, 2));
if (process.argv.includes('--size')) console.log(`console: ${outputs.join(', ')}; ${(gzipped / 1024).toFixed(1)} KB gzipped`);
