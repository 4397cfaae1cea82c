import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { sendJson } from './http-replies.js';
import { errorBody, jsonContent, type Route } from './route.js';

/**
 * The console's files as the build made them: `dist/app` (this file is dist/src/surfaces),
 * the shell with hashed asset names written in and the bundle under `assets/`. The sources
 * are `app/` at the package root; app/build.mjs turns them into this.
 */
export const APP_DIR = resolve(import.meta.dirname, '..', '..', 'app');

/**
 * The shell's content policy: same origin only. Its script and style come from /app/assets,
 * it talks only to this gate, posts forms only here, and no other site may frame it.
 */
export const APP_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const MEDIA_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** A file name of the bundle: one segment, no leading dot, a known type. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

function staticHeaders(type: string, length: number): Record<string, string> {
  return {
    'content-type': type,
    'content-length': String(length),
    'content-security-policy': APP_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Its own requests carry its real Origin (under no-referrer a same-origin POST says `null`,
    // which /oauth/token and /oauth/logout refuse); no other site learns its address, whose
    // query holds a sign-in code for a moment.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-cache',
  };
}

/**
 * GET /app (the static shell) and GET /app/assets/{asset} (its bundle), from the same port.
 * The files are read once at start: the set served is exactly what the build put there.
 */
export function appRoutes(appDir: string = APP_DIR): Route[] {
  const shell = existsSync(join(appDir, 'index.html')) ? readFileSync(join(appDir, 'index.html')) : null;
  const assetDir = join(appDir, 'assets');
  const assets = new Map<string, Buffer>();
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      if (ASSET_NAME.test(name) && MEDIA_TYPES[extname(name)] !== undefined) assets.set(name, readFileSync(join(assetDir, name)));
    }
  }
  return [
    {
      method: 'GET',
      path: '/app',
      guard: 'none',
      summary: 'The console: a static HTML shell under a strict same-origin content policy.',
      doc: () => ({ responses: { 200: { description: 'the shell', content: { 'text/html': { schema: { type: 'string' } } } } } }),
      handler: ({ res }) => {
        if (shell === null) return sendJson(res, 404, { error: 'this installation has no console (app/index.html is missing)' });
        res.writeHead(200, staticHeaders('text/html; charset=utf-8', shell.length));
        res.end(shell);
      },
    },
    {
      method: 'GET',
      path: '/app/assets/{asset}',
      guard: 'none',
      summary: "The console's bundle: scripts, styles and images, from the same port.",
      doc: () => ({
        parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string', pattern: ASSET_NAME.source } }],
        responses: {
          200: { description: 'the file', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
          404: { description: 'no such asset', content: jsonContent(errorBody) },
        },
      }),
      handler: ({ res, pathParams }) => {
        const name = pathParams['asset']!;
        const bytes = assets.get(name);
        if (bytes === undefined) return sendJson(res, 404, { error: `no asset ${name}` });
        res.writeHead(200, staticHeaders(MEDIA_TYPES[extname(name)]!, bytes.length));
        res.end(bytes);
      },
    },
  ];
}
