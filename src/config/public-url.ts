import type { GateConfig } from './keys.js';

const stripSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Where people and programs reach this gate from outside, when the operator said so:
 * `server.public_url`, else the issuer (`auth.issuer` is "the base the gate is reached at"),
 * else null (the gate is reached where it listens). The console's links, the sign-in pages'
 * own origin and the cookies' Secure flag follow it.
 */
export function publicUrl(config: Pick<GateConfig, 'server' | 'auth'>): string | null {
  if (config.server.public_url !== '') return stripSlash(config.server.public_url);
  if (config.auth.issuer !== '') return stripSlash(config.auth.issuer);
  return null;
}

/**
 * Why the two settings disagree, or null: the sign-in provider's routes are served at the
 * gate's own base, so an issuer elsewhere than the public URL could not be reached by the
 * browsers the public URL serves (discovery is read at `<issuer>/.well-known/...`).
 */
export function publicUrlProblem(config: Pick<GateConfig, 'server' | 'auth'>): string | null {
  const { public_url: url } = config.server;
  const { issuer } = config.auth;
  if (url === '' || issuer === '' || stripSlash(url) === stripSlash(issuer)) return null;
  return `server.public_url (${url}) and auth.issuer (${issuer}) differ: the gate's sign-in provider is served at its public URL, so set auth.issuer to ${stripSlash(url)} too (people keep their identities when the issuer moves; see docs/operations.md)`;
}
