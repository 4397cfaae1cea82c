import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { SignInEndpoints } from '../credentials/trusted-issuers.js';
import { appPolicy, ASSET_NAME, assetReply, readAppFiles, staticHeaders, type AppFiles } from '../http-rpc/static-app.js';
import type { OrgContext } from './org-context.js';
import { SERVICE_VERSION } from '../version.js';

/** The organization's console as app/build.mjs made it: `dist/app-org` (this file is dist/src/org). */
export const ORG_APP_DIR = resolve(import.meta.dirname, '..', '..', 'app-org');

/**
 * What the org's console needs before anyone signs in: the org's deployment id, and where its
 * people sign in (each trusted issuer whose discovery names an authorization and a token
 * endpoint, with the client id its tokens must name). An issuer that cannot be read now is
 * left out until it can.
 */
export async function orgIdentity(ctx: Pick<OrgContext, 'key' | 'signIn'>) {
  const { issuers, clientId } = ctx.signIn;
  const found = issuers === null ? [] : await Promise.all(issuers.issuers.map((iss) => issuers.signInEndpoints(iss)));
  return {
    service: 'gate-org' as const,
    version: SERVICE_VERSION,
    deployment_id: ctx.key.deploymentId,
    auth: { client_id: clientId, issuers: found.filter((e): e is SignInEndpoints => e !== null) },
  };
}

export type OrgIdentity = Awaited<ReturnType<typeof orgIdentity>>;

const originOf = (url: string) => new URL(url).origin;

/**
 * GET /app, GET /app/assets/{asset} and GET /identity at the organization gate, served as the
 * gate serves its console (src/http-rpc/static-app.ts: files read once at start, the same headers). Its
 * content policy differs in one place: the page may also call the token endpoints of the
 * issuers its people sign in at, where it exchanges their sign-in code (PKCE, in the page).
 */
export class OrgApp {
  private readonly files: AppFiles;

  constructor(private readonly ctx: Pick<OrgContext, 'key' | 'signIn'>, dir: string = ORG_APP_DIR) {
    this.files = readAppFiles(dir);
  }

  /** Answers the request when it is one of the console's; false when it is not. */
  async serve(pathname: string, res: ServerResponse): Promise<boolean> {
    if (pathname === '/identity') {
      json(res, 200, await orgIdentity(this.ctx));
      return true;
    }
    if (pathname === '/app') {
      const { shell } = this.files;
      if (shell === null) {
        json(res, 404, { error: "this installation has no organization console (dist/app-org/index.html is missing: run npm run build)" });
        return true;
      }
      const identity = await orgIdentity(this.ctx);
      res.writeHead(200, staticHeaders('text/html; charset=utf-8', shell.length, appPolicy([...new Set(identity.auth.issuers.map((i) => originOf(i.token_endpoint)))])));
      res.end(shell);
      return true;
    }
    const asset = /^\/app\/assets\/([^/]+)$/.exec(pathname)?.[1];
    if (asset === undefined) return false;
    const reply = ASSET_NAME.test(asset) ? assetReply(this.files, asset) : null;
    if (reply === null) json(res, 404, { error: `no asset ${asset}` });
    else {
      res.writeHead(200, reply.headers);
      res.end(reply.bytes);
    }
    return true;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-cache' });
  res.end(text);
}
