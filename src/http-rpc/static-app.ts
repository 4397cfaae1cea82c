import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * A console's files as a build made them, and the headers they are served with: the gate's
 * console (`dist/app`, app-routes.ts) and the organization's (`dist/app-org`, org-app.ts)
 * are served the same way, each from its own directory.
 */

/**
 * The shell's content policy: same origin only. Its script and style come from /app/assets,
 * it posts forms only here, and no other site may frame it. `connectTo` adds origins its
 * scripts may call besides its own (the organization's console exchanges a sign-in code at
 * the token endpoint of the issuer its person chose); the gate's console has none.
 */
export function appPolicy(connectTo: readonly string[] = []): string {
  const connect = ["'self'", ...connectTo].join(' ');
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src ${connect}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

export const MEDIA_TYPES: Record<string, string> = {
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
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function staticHeaders(type: string, length: number, policy: string = appPolicy()): Record<string, string> {
  return {
    'content-type': type,
    'content-length': String(length),
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Its own requests carry its real Origin (under no-referrer a same-origin POST says `null`,
    // which /oauth/token and /oauth/logout refuse); no other site learns its address, whose
    // query holds a sign-in code for a moment.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-cache',
  };
}

export interface AppFiles {
  /** index.html with the hashed asset names written in; null when the build made none. */
  shell: Buffer | null;
  /** assets/ by file name: exactly what the build put there, of known types. */
  assets: ReadonlyMap<string, Buffer>;
}

/** The files are read once at start: the set served is exactly what the build put there. */
export function readAppFiles(appDir: string): AppFiles {
  const shell = existsSync(join(appDir, 'index.html')) ? readFileSync(join(appDir, 'index.html')) : null;
  const assetDir = join(appDir, 'assets');
  const assets = new Map<string, Buffer>();
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      if (ASSET_NAME.test(name) && MEDIA_TYPES[extname(name)] !== undefined) assets.set(name, readFileSync(join(assetDir, name)));
    }
  }
  return { shell, assets };
}

/** An asset's bytes and headers, or null when the build made no such file. */
export function assetReply(files: AppFiles, name: string, policy?: string): { headers: Record<string, string>; bytes: Buffer } | null {
  const bytes = files.assets.get(name);
  if (bytes === undefined) return null;
  return { headers: staticHeaders(MEDIA_TYPES[extname(name)]!, bytes.length, policy), bytes };
}
