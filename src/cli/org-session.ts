import { GateClientError, OrgDoorClient, OrgRpcClient } from '@gate/client';
import { Ending } from './command-ending.js';
import { EXIT } from './exit-codes.js';
import { discoverProvider, signInWithPkce, signOut, type PkceSignInOptions } from './pkce-sign-in.js';
import { confirm } from './terminal-answer.js';

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
}

/**
 * The whole submissions of an inbox page come back in one answer: at most 10 of at most
 * 8 MiB each (the door's cap), so the reply cap is raised from the client's default 1 MiB (docs/protocol.md#client-transport-rules).
 */
const INBOX_REPLY_MAX_BYTES = 96 * 1024 * 1024;

const plain = { allowPlainHttpLoopback: true } as const;

/**
 * Where the person signs in: the issuer they named (--issuer, or GATE_ORG_ISSUER), which the
 * organization must trust; else the one the organization names at its unauthenticated GET
 * /health, only once the person confirms it on a terminal. A server's word is never enough to
 * send a password anywhere: without a terminal to confirm on (a script, or --password-stdin,
 * whose stdin is the password) the issuer is named or nothing is sent.
 */
async function issuerOf(url: string, chosen: string | undefined, options: OrgSessionOptions): Promise<{ issuer: string; org: string }> {
  const door = new OrgDoorClient({ baseUrl: url, bearer: '', ...plain });
  let health;
  try {
    health = await door.health();
  } catch (error) {
    if (error instanceof GateClientError && (error.kind === 'transport' || error.kind === 'timeout')) throw new Ending(`no organization gate answers at ${url} (${error.message})`, EXIT.noGate);
    if (error instanceof GateClientError) throw new Ending(`${url} does not answer as an organization gate: ${error.message}`, EXIT.errorObject);
    throw error;
  } finally {
    await door.close();
  }
  const trusted = health.trusted_issuers;
  if (chosen !== undefined) {
    const issuer = chosen.replace(/\/+$/, '');
    if (!trusted.includes(issuer)) {
      throw new Ending(`the organization does not trust ${issuer}; it trusts ${trusted.length === 0 ? 'no issuer' : trusted.join(', ')} ([auth].trusted_issuers)`, EXIT.badArgument);
    }
    return { issuer, org: health.deployment_id };
  }
  if (trusted.length === 0) {
    throw new Ending('the organization trusts no issuer ([auth].trusted_issuers is empty): nobody can sign in there; its reviewers use review keys (gate org key issue)', EXIT.errorObject);
  }
  if (trusted.length > 1) throw new Ending(`the organization trusts several issuers; name yours with --issuer: ${trusted.join(', ')}`, EXIT.badArgument);
  const announced = trusted[0]!;
  const name = `name the issuer you sign in at with --issuer (or GATE_ORG_ISSUER): the organization at ${url} says its people sign in at ${announced}, and this command sends your password only to an issuer you named or confirmed`;
  if (options.passwordStdin || process.stdin.isTTY !== true) throw new Ending(name, EXIT.badArgument);
  if (!(await confirm(`The organization at ${url} says its people sign in at ${announced}. Sign in there? [y/N] `))) throw new Ending(`nothing sent: ${name}`, EXIT.errorObject);
  return { issuer: announced, org: health.deployment_id };
}

/**
 * Signs the person in at the issuer the organization trusts (PKCE, loopback redirect, as
 * gate sign does at a gate), runs `work` with the org's /rpc under that token, and signs
 * out at the end, whatever happened: the token is for this one command and is never kept
 * (docs/commands.md "gate org sign-in"). `next` is what the browser's landing page says the
 * command does now.
 */
export async function withOrgSession<T>(options: OrgSessionOptions, next: string, work: (session: OrgSession) => Promise<T>): Promise<T> {
  const url = options.url.replace(/\/+$/, '');
  const { issuer, org } = await issuerOf(url, options.issuer, options);
  const provider = await discoverProvider(issuer, `${issuer} has no OpenID discovery document: it is not a sign-in provider`);
  const token = await signInWithPkce(provider, options, next);
  const client = new OrgRpcClient({ baseUrl: url, bearer: token, ...plain, deadlineMs: 30_000, maxResponseBytes: INBOX_REPLY_MAX_BYTES });
  try {
    const described = await client.call('gv.describe');
    return await work({ client, issuer, org, you: described['you'] as OrgSession['you'] });
  } finally {
    await client.close();
    await signOut(provider, token);
  }
}
