import { GateClientError, OrgDoorClient, OrgRpcClient } from '@gate/client';
import { Ending } from './command-ending.js';
import { EXIT } from './exit-codes.js';
import { discoverProvider, signInWithPkce, signOut, type PkceSignInOptions } from './pkce-sign-in.js';
import { confirm } from './terminal-answer.js';
import { forgetSession, keepSession, keptSession, type KeptOrgSession } from './kept-org-sessions.js';

export interface OrgSessionOptions extends PkceSignInOptions {
  /** The organization gate's address. */
  url: string;
  /** The issuer to sign in at (--issuer, GATE_ORG_ISSUER); without it, the one the org names at GET /health once the person confirms it on a terminal. */
  issuer?: string;
}

export interface OrgSession {
  client: OrgRpcClient;
  issuer: string;
  org: string;
  you: { identity: string; role: string; kind: string };
  /** Who signed in, as their ID token says (for the person's own terminal); nulls when it says nothing, or names another identity. */
  person: { email: string | null; name: string | null };
  /** When the kept sign-in ends (ms since the epoch); null when it could not be kept. */
  keptUntil: number | null;
}

/**
 * The whole submissions of an inbox page come back in one answer: at most 10 of at most
 * 8 MiB each (the door's cap), so the reply cap is raised from the client's default 1 MiB (docs/protocol.md#client-transport-rules).
 */
const INBOX_REPLY_MAX_BYTES = 96 * 1024 * 1024;

const plain = { allowPlainHttpLoopback: true } as const;

/** The organization's GET /health: who it is and the issuers it trusts. */
async function healthOf(url: string): Promise<{ deployment_id: string; trusted_issuers: string[] }> {
  const door = new OrgDoorClient({ baseUrl: url, bearer: '', ...plain });
  try {
    return await door.health();
  } catch (error) {
    if (error instanceof GateClientError && (error.kind === 'transport' || error.kind === 'timeout')) throw new Ending(`no organization gate answers at ${url} (${error.message})`, EXIT.noGate);
    if (error instanceof GateClientError) throw new Ending(`${url} does not answer as an organization gate: ${error.message}`, EXIT.errorObject);
    throw error;
  } finally {
    await door.close();
  }
}

/**
 * Where the person signs in: the issuer they named (--issuer, or GATE_ORG_ISSUER), which the
 * organization must trust; else the one the organization names at its unauthenticated GET
 * /health, only once the person confirms it on a terminal. A server's word is never enough to
 * send a password anywhere: without a terminal to confirm on (a script, or --password-stdin,
 * whose stdin is the password) the issuer is named or nothing is sent.
 */
async function issuerOf(url: string, trusted: string[], chosen: string | undefined, options: OrgSessionOptions): Promise<string> {
  if (chosen !== undefined) {
    if (!trusted.includes(chosen)) {
      throw new Ending(`the organization does not trust ${chosen}; it trusts ${trusted.length === 0 ? 'no issuer' : trusted.join(', ')} ([auth].trusted_issuers)`, EXIT.badArgument);
    }
    return chosen;
  }
  if (trusted.length === 0) {
    throw new Ending('the organization trusts no issuer ([auth].trusted_issuers is empty): nobody can sign in there; its reviewers use review keys (gate org key issue)', EXIT.errorObject);
  }
  if (trusted.length > 1) throw new Ending(`the organization trusts several issuers; name yours with --issuer: ${trusted.join(', ')}`, EXIT.badArgument);
  const announced = trusted[0]!;
  const name = `name the issuer you sign in at with --issuer (or GATE_ORG_ISSUER): the organization at ${url} says its people sign in at ${announced}, and this command sends your password only to an issuer you named or confirmed`;
  if (options.passwordStdin || process.stdin.isTTY !== true) throw new Ending(name, EXIT.badArgument);
  if (!(await confirm(`The organization at ${url} says its people sign in at ${announced}. Sign in there? [y/N] `))) throw new Ending(`nothing sent: ${name}`, EXIT.errorObject);
  return announced;
}

/** A JWT's claims, read without checking its signature: for what this command shows or keeps of its own token, never to trust anyone. */
function claimsOf(jwt: string | null): Record<string, unknown> {
  const part = jwt?.split('.')[1];
  if (part === undefined) return {};
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The email and name the ID token states, only when it names the identity the organization took the person for. */
function personOf(idToken: string | null, identity: string): OrgSession['person'] {
  const c = claimsOf(idToken);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  if (typeof c['iss'] !== 'string' || typeof c['sub'] !== 'string' || `${c['iss']}|${c['sub']}` !== identity) return { email: null, name: null };
  return { email: text(c['email']), name: text(c['name']) };
}

/** A kept token still needs this long before its end to be used: the organization may take that long to answer the command's last call. */
const KEPT_MARGIN_MS = 60_000;

/** Why the session kept for this organization cannot serve this command; null when it can. */
function unusable(kept: KeptOrgSession, org: string, trusted: string[], chosen: string | undefined, email: string | undefined, now: number): string | null {
  if (kept.org !== org) return `was for the organization ${kept.org}, and ${kept.url} answers as ${org} now`;
  if (chosen !== undefined && chosen !== kept.issuer) return `is at ${kept.issuer}, not at ${chosen}`;
  if (!trusted.includes(kept.issuer)) return `is at ${kept.issuer}, which the organization no longer trusts`;
  if (email !== undefined && kept.email?.toLowerCase() !== email.toLowerCase()) return `is ${kept.email ?? kept.identity}'s, not ${email}'s`;
  if (kept.expires_at - KEPT_MARGIN_MS <= now) return `${kept.expires_at <= now ? 'ended' : 'ends within a minute,'} at ${new Date(kept.expires_at).toISOString()}`;
  return null;
}

/** Revokes a kept token at its issuer, as far as the issuer answers: a token nobody will use again should end (a provider without revocation lets it expire). */
async function revokeKept(kept: KeptOrgSession): Promise<void> {
  if (kept.expires_at <= Date.now()) return;
  try {
    await signOut(await discoverProvider(kept.issuer, `${kept.issuer} has no OpenID discovery document`), kept.access_token);
  } catch {
    // The issuer is away, or no longer a provider: the token ends at its expiry.
  }
}

const clientFor = (url: string, token: string) => new OrgRpcClient({ baseUrl: url, bearer: token, ...plain, deadlineMs: 30_000, maxResponseBytes: INBOX_REPLY_MAX_BYTES });
const refusedCredential = (error: unknown) => error instanceof GateClientError && error.status === 401;

/**
 * Runs `work` with the organization's /rpc as the person, signed in at the issuer the
 * organization trusts (PKCE, loopback redirect, as gate sign does at a gate). The sign-in is
 * kept (kept-org-sessions.ts: 0600, in the person's state directory) for the organization at
 * that address, and a later command uses it with no browser while its token lasts, for that
 * same organization (its deployment id), at that same issuer (the one named with --issuer, or
 * the one the person confirmed), for that same person (--email, when given), as long as the
 * organization accepts it; otherwise it is forgotten, said on stderr, and the person signs in
 * again (docs/organization.md "People at the organization from the terminal"). `fresh`: sign
 * in whatever is kept (gate org sign-in). `next` is what the browser's landing page says the
 * command does now.
 */
export async function withOrgSession<T>(options: OrgSessionOptions, next: string, work: (session: OrgSession) => Promise<T>, fresh = false): Promise<T> {
  const url = options.url.replace(/\/+$/, '');
  const chosen = options.issuer?.replace(/\/+$/, '');
  const health = await healthOf(url);
  const org = health.deployment_id;
  const kept = keptSession(url);
  if (kept !== undefined && !fresh) {
    const why = unusable(kept, org, health.trusted_issuers, chosen, options.email, Date.now());
    if (why === null) {
      const client = clientFor(url, kept.access_token);
      try {
        let described: Record<string, unknown> | undefined;
        try {
          described = await client.call('gv.describe');
        } catch (error) {
          if (!refusedCredential(error)) throw error;
          process.stderr.write(`the sign-in kept for ${url} is refused by the organization (${(error as Error).message}): signing in again\n`);
        }
        if (described !== undefined) {
          const you = described['you'] as OrgSession['you'];
          return await work({ client, issuer: kept.issuer, org, you, person: { email: kept.email, name: kept.name }, keptUntil: kept.expires_at });
        }
      } finally {
        await client.close();
      }
    } else process.stderr.write(`the sign-in kept for ${url} ${why}: signing in again\n`);
    forgetSession(url);
    await revokeKept(kept);
  }
  const issuer = await issuerOf(url, health.trusted_issuers, chosen, options);
  const provider = await discoverProvider(issuer, `${issuer} has no OpenID discovery document: it is not a sign-in provider`);
  const tokens = await signInWithPkce(provider, options, next);
  const client = clientFor(url, tokens.accessToken);
  let session: OrgSession;
  try {
    const you = (await client.call('gv.describe'))['you'] as OrgSession['you'];
    const exp = claimsOf(tokens.accessToken)['exp'];
    const expiresAt = typeof exp === 'number' ? exp * 1000 : tokens.expiresIn === null ? null : Date.now() + tokens.expiresIn * 1000;
    const person = personOf(tokens.idToken, you.identity);
    session = { client, issuer, org, you, person, keptUntil: expiresAt };
    if (expiresAt !== null) keepSession({ url, org, issuer, access_token: tokens.accessToken, expires_at: expiresAt, identity: you.identity, ...person });
    // A sign-in kept before for this organization, replaced by this one, ends at its issuer.
    if (kept !== undefined && fresh) await revokeKept(kept);
  } catch (error) {
    // Not kept: the sign-in served nothing, and ends here.
    await client.close();
    await signOut(provider, tokens.accessToken);
    throw error;
  }
  try {
    return await work(session);
  } finally {
    await client.close();
  }
}

/**
 * Forgets the sign-in kept for the organization at `url` and revokes its token at its issuer
 * (gate org sign-out); null when none was kept.
 */
export async function signOutOfOrg(url: string): Promise<KeptOrgSession | null> {
  const kept = keptSession(url);
  if (kept === undefined) return null;
  forgetSession(url);
  await revokeKept(kept);
  return kept;
}
