import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { NATIVE_CLIENT_ID } from '../auth/native-client.js';
import { Ending } from './command-ending.js';
import { EXIT } from './exit-codes.js';
import { LoopbackRedirect } from './loopback-redirect.js';
import { readStdinPassword } from './password-prompt.js';
import { checkedUrl } from '@gate/client';

/** The endpoints of a sign-in provider the command line uses, from its discovery document. */
export interface SignInProvider {
  authorization_endpoint: string;
  token_endpoint: string;
  /** Absent at a provider that revokes nothing: the token then ends at its own expiry. */
  revocation_endpoint?: string;
}

export interface PkceSignInOptions {
  /** With passwordStdin: who signs in. */
  email?: string;
  /** Post the provider's own form with the password read from stdin instead of a browser (scripts). */
  passwordStdin?: boolean;
  /** false: print the address without trying to open a browser. */
  browser?: boolean;
  /** How long to wait for the browser to come back, in ms. */
  timeout: number;
  /** The client the command signs in as (default gate-cli, the native client every gate's provider knows). */
  clientId?: string;
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

/** An address a credential may go to: https, or plain http only to this machine's loopback. */
function reachable(address: string): URL | null {
  try {
    return checkedUrl(address, address, true);
  } catch {
    return null;
  }
}

/**
 * The provider at `issuer`, by OpenID discovery, for an issuer the person named (a gate's
 * address they gave or their home's gate said; an organization's issuer they gave with
 * --issuer or confirmed): nothing a server announces is taken as an issuer here. A person's
 * password (--password-stdin), sign-in code and token go only to the issuer's own origin, over
 * https unless the issuer is on this machine's loopback (docs/organization.md "People at the
 * organization from the terminal"): the issuer's address, its discovery document's `issuer`
 * (which must be the issuer itself, OpenID Connect Discovery 4.3), and every endpoint it names
 * are checked before anything is sent. `notAProvider` says what a 404 means where the command
 * looked (a gate without [auth].issuer, an issuer address mistyped).
 */
export async function discoverProvider(issuer: string, notAProvider: string): Promise<SignInProvider> {
  const home = reachable(issuer);
  if (home === null) throw new Ending(`${issuer}: an issuer is reached over https (plain http only on this machine's loopback)`, EXIT.badArgument);
  let res: Response;
  try {
    res = await fetch(`${stripSlash(issuer)}/.well-known/openid-configuration`, { redirect: 'error' });
  } catch (error) {
    throw new Ending(`nothing answers at ${issuer} (${error instanceof Error ? error.message : String(error)})`, EXIT.noGate);
  }
  if (res.status === 404) throw new Ending(notAProvider, EXIT.errorObject);
  if (!res.ok) throw new Ending(`${issuer}/.well-known/openid-configuration answered ${res.status}`, EXIT.errorObject);
  const provider = (await res.json()) as Partial<SignInProvider> & { issuer?: unknown };
  if (typeof provider.authorization_endpoint !== 'string' || typeof provider.token_endpoint !== 'string') {
    throw new Ending(`${issuer}'s discovery document names no authorization and token endpoints`, EXIT.errorObject);
  }
  if (typeof provider.issuer !== 'string' || stripSlash(provider.issuer) !== stripSlash(issuer)) {
    throw new Ending(`${issuer}'s discovery document names another issuer (${String(provider.issuer)}): sign in at that issuer's own address, if it is one you trust`, EXIT.errorObject);
  }
  const endpoints = { authorization_endpoint: provider.authorization_endpoint, token_endpoint: provider.token_endpoint, ...(provider.revocation_endpoint === undefined ? {} : { revocation_endpoint: provider.revocation_endpoint }) };
  for (const [name, address] of Object.entries(endpoints)) {
    if (typeof address !== 'string' || reachable(address)?.origin !== home.origin) {
      throw new Ending(
        `${issuer}'s discovery document names its ${name} at ${String(address)}, not on ${home.origin}: this command sends a person's password, code and token only to the issuer's own origin`,
        EXIT.errorObject,
      );
    }
  }
  return endpoints;
}

/** Opens the address in the person's browser when the desktop can; a headless host just has the printed line. */
function openBrowser(address: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(opener, [address], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener: the printed address is enough.
  }
}

/**
 * The scripted sign-in (--password-stdin): the command posts the provider's own form, as a
 * program (no browser headers), and reads the code from the 303 it answers.
 */
async function postForm(provider: SignInProvider, fields: Record<string, string>, email: string, password: string, redirect: LoopbackRedirect): Promise<string> {
  const res = await fetch(provider.authorization_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, email, password }).toString(),
    redirect: 'manual',
  });
  await res.text();
  if (res.status === 303) return redirect.codeFromLocation(res.headers.get('location') ?? '', fields['state']!);
  if (res.status === 200) throw new Ending('the email or password is not right', EXIT.errorObject);
  if (res.status === 429) throw new Ending(`too many attempts; try again in ${res.headers.get('retry-after') ?? 'a while'} s`, EXIT.errorObject);
  throw new Ending(`the sign-in page answered ${res.status}`, EXIT.errorObject);
}

/** What the provider's token endpoint answered a sign-in: the access token, and what the command may read of the person. */
export interface IssuedTokens {
  accessToken: string;
  /**
   * The OpenID Connect ID token, when the provider gave one: its claims (email, name) say who
   * signed in, for the person's own terminal. It came straight from the token endpoint of the
   * issuer the person named or confirmed, on its checked origin (OpenID Connect Core 3.1.3.7).
   */
  idToken: string | null;
  /** The access token's lifetime in seconds, as the provider said it (`expires_in`), when it did. */
  expiresIn: number | null;
}

/**
 * A person's sign-in from the command line (RFC 8252): the authorization code flow with
 * PKCE S256, the code coming back to a loopback listener of this command (or, scripted, read
 * from the form's redirect), exchanged for an access token, which is returned with the ID
 * token. `next` is the sentence the browser's landing page says about what the command does
 * now (LoopbackRedirect).
 */
export async function signInWithPkce(provider: SignInProvider, options: PkceSignInOptions, next: string): Promise<IssuedTokens> {
  const clientId = options.clientId ?? NATIVE_CLIENT_ID;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const redirect = await LoopbackRedirect.listen(state, next);
  try {
    const fields = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirect.redirectUri,
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      // email and profile: the ID token then says who signed in, so the terminal can name them.
      scope: 'openid email profile',
    };
    let code: string;
    if (options.passwordStdin) {
      if (options.email === undefined) throw new Ending('--password-stdin signs in the person named by --email', EXIT.badArgument);
      code = await postForm(provider, fields, options.email, await readStdinPassword(), redirect);
    } else {
      const address = `${provider.authorization_endpoint}?${new URLSearchParams(fields)}`;
      process.stderr.write(`Sign in in your browser (this command waits for it):\n  ${address}\n`);
      if (options.browser !== false) openBrowser(address);
      code = await redirect.code(options.timeout);
    }
    const res = await fetch(provider.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: redirect.redirectUri }).toString(),
    });
    const tokens = (await res.json()) as { access_token?: string; id_token?: unknown; expires_in?: unknown; error_description?: string };
    if (res.status !== 200 || typeof tokens.access_token !== 'string') throw new Ending(`the code was not exchanged: ${tokens.error_description ?? res.status}`, EXIT.errorObject);
    return {
      accessToken: tokens.access_token,
      idToken: typeof tokens.id_token === 'string' ? tokens.id_token : null,
      expiresIn: typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in : null,
    };
  } finally {
    redirect.close();
  }
}

/** Ends the sign-in's session at the provider (RFC 7009), whatever the command's outcome; a provider that revokes nothing is left to expire the token. */
export async function signOut(provider: SignInProvider, token: string): Promise<void> {
  if (provider.revocation_endpoint === undefined) return;
  await fetch(provider.revocation_endpoint, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
}
