import { resolve } from 'node:path';
import { sendJson } from '../http-rpc/http-replies.js';
import { errorBody, jsonContent, type Route } from './route.js';
import { ASSET_NAME, assetReply, readAppFiles, staticHeaders } from '../http-rpc/static-app.js';

/**
 * The console's files as the build made them: `dist/app` (this file is dist/src/surfaces),
 * the shell with hashed asset names written in and the bundle under `assets/`. The sources
 * are `app/` at the package root; app/build.mjs turns them into this.
 */
export const APP_DIR = resolve(import.meta.dirname, '..', '..', 'app');

/**
 * GET /app (the static shell) and GET /app/assets/{asset} (its bundle), from the same port.
 * The files are read once at start: the set served is exactly what the build put there.
 */
export function appRoutes(appDir: string = APP_DIR): Route[] {
  const files = readAppFiles(appDir);
  const { shell } = files;
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
        const asset = assetReply(files, name);
        if (asset === null) return sendJson(res, 404, { error: `no asset ${name}` });
        res.writeHead(200, asset.headers);
        res.end(asset.bytes);
      },
    },
  ];
}
