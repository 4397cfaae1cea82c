import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { resolveHome } from '../config/home.js';
import { NATIVE_CLIENT_ID } from '../auth/native-client.js';
import type { GateClient } from '../client/gate-client.js';
import { ReviewerClient } from '../client/reviewer-client.js';
import { GateClientError } from '../client/client-error.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { LoopbackRedirect } from './loopback-redirect.js';
import { readStdinPassword } from './password-prompt.js';
import { socketCall } from './socket-call.js';
import { withHiddenShown } from '../domain/hidden-characters.js';
import type { PlacedFinding } from '../projections/artifact-reads.js';
import { isFlagging, type Severity } from '../../workers/scan/finding.js';

export interface SignOptions {
  /** needs-evidence sends the row back to its writer (gv.request_evidence) with --reason saying what is missing. */
  decision: 'approve' | 'reject' | 'archive' | 'needs-evidence';
  promote?: boolean;
  reason?: string;
  category?: string;
  url?: string;
  home?: string;
  email?: string;
  passwordStdin?: boolean;
  browser?: boolean;
  yes?: boolean;
  /** With --yes: approve even over findings that held the row (without it such an approval is refused). */
  overFindings?: boolean;
  timeout: number;
}

/** Ends the command with a status; the message goes to stderr. */
class Ending extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

interface Provider {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
}

/** The gate's address: --url, else what the home's gate says it listens on (gv.ping over the socket). */
async function gateUrl(options: SignOptions): Promise<string> {
  if (options.url !== undefined) return options.url.replace(/\/+$/, '');
  try {
    const ping = await socketCall(resolveHome(options.home).socket, 'gv.ping', {});
    const http = (ping['result'] as { paths?: { http?: string } } | undefined)?.paths?.http;
    if (typeof http === 'string') return http;
  } catch {
    // Said below, with what to do.
  }
  throw new Ending('no gate answers on the home socket to say its address: give --url', EXIT.noGate);
}

async function discover(url: string): Promise<Provider> {
  let res: Response;
  try {
    res = await fetch(`${url}/.well-known/openid-configuration`, { redirect: 'error' });
  } catch (error) {
    throw new Ending(`no gate answers at ${url} (${error instanceof Error ? error.message : String(error)})`, EXIT.noGate);
  }
  if (res.status === 404) throw new Ending(`${url} is not a sign-in provider: set [auth].issuer in its gate.toml`, EXIT.errorObject);
  if (!res.ok) throw new Ending(`${url}/.well-known/openid-configuration answered ${res.status}`, EXIT.errorObject);
  return (await res.json()) as Provider;
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
async function postForm(provider: Provider, fields: Record<string, string>, email: string, password: string, redirect: LoopbackRedirect): Promise<string> {
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

async function signIn(provider: Provider, options: SignOptions): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const redirect = await LoopbackRedirect.listen(state);
  try {
    const fields = {
      response_type: 'code',
      client_id: NATIVE_CLIENT_ID,
      redirect_uri: redirect.redirectUri,
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scope: 'openid email',
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
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: NATIVE_CLIENT_ID, redirect_uri: redirect.redirectUri }).toString(),
    });
    const tokens = (await res.json()) as { access_token?: string; error_description?: string };
    if (res.status !== 200 || tokens.access_token === undefined) throw new Ending(`the code was not exchanged: ${tokens.error_description ?? res.status}`, EXIT.errorObject);
    return tokens.access_token;
  } finally {
    redirect.close();
  }
}

/**
 * Reads the row the way a reviewer must before signing (README "Reviewers read what they
 * sign"): the whole body, page by page through gv.node body: true, each page shown as it
 * arrives, so the read is the person's and is journaled as such. On a terminal each further
 * page waits for Enter.
 */
async function readBody(client: GateClient, artifactId: string, pause: (() => Promise<void>) | null): Promise<PlacedFinding[]> {
  let offset: number | null = 0;
  let first = true;
  let findings: PlacedFinding[] = [];
  while (offset !== null) {
    const page = (await client.call('gv.node', { artifact_id: artifactId, body: true, ...(offset === 0 ? {} : { offset }) })) as Record<string, any>;
    if (first) {
      const chars = page['masked_chars'] ?? (typeof page['body'] === 'string' ? page['body'].length : 0);
      process.stdout.write(`${page['artifact_id']} (${page['status']?.state ?? page['approval']?.state ?? ''}) ${chars} characters:\n`);
      process.stdout.write(evidenceLines(page['evidence']));
      first = false;
    } else if (pause !== null) await pause();
    const text = typeof page['masked_body'] === 'string' ? page['masked_body'] : typeof page['body'] === 'string' ? page['body'] : '';
    // Drawn, not written: a terminal acts on a text-direction override or an escape the body holds.
    const shown = withHiddenShown(text);
    process.stdout.write(shown.endsWith('\n') ? shown : `${shown}\n`);
    if (Array.isArray(page['findings'])) findings = page['findings'] as PlacedFinding[];
    offset = typeof page['masked_next_offset'] === 'number' ? page['masked_next_offset'] : null;
  }
  return findings;
}

/** The row's requests for evidence, one a line with what answered it; drawn, as the body is. */
function evidenceLines(requests: unknown): string {
  if (!Array.isArray(requests)) return '';
  return requests
    .map((r: { by: string | null; asks: string; answered: { attachments: Array<{ name: string | null; sha256: string }> } | null }) => {
      const answer = r.answered === null ? 'waiting for its writer' : `answered with ${r.answered.attachments.map((a) => a.name ?? a.sha256).join(', ')}`;
      return `Evidence asked by ${r.by ?? 'the deployment'}: ${withHiddenShown(r.asks)} (${answer})\n`;
    })
    .join('');
}

/** The findings, one a line, with where each is in the body just shown. */
function findingLines(findings: PlacedFinding[]): string {
  return findings.map((f, n) => `  ${n + 1}. ${f.kind} (${f.severity}) at characters ${f.start}-${f.end}${f.detail ? `: ${f.detail}` : ''}\n`).join('');
}

/**
 * An approval over findings that held the row names them: they are listed, and the person
 * types `approve` (a plain y is not enough), or a script passes --over-findings with --yes.
 */
async function approveOverFindings(findings: PlacedFinding[], options: SignOptions): Promise<void> {
  // Findings that held the row (medium and above): approving over them is a second, deliberate act.
  const holding = findings.filter((f) => isFlagging(f.severity as Severity));
  if (options.decision !== 'approve' || holding.length === 0) return;
  const list = findingLines(holding);
  if (options.yes) {
    if (options.overFindings) return;
    throw new Ending(`the scanner held this row for ${holding.length} finding${holding.length === 1 ? '' : 's'}:\n${list}approving over them takes --over-findings beside --yes`, EXIT.badArgument);
  }
  process.stderr.write(`The scanner held this row for ${holding.length} finding${holding.length === 1 ? '' : 's'}:\n${list}`);
  if ((await answer('Type approve to approve over them (anything else signs nothing): ')) !== 'approve') throw new Ending('nothing signed', EXIT.errorObject);
}

/** One line of an answer from stdin (a terminal, or a pipe a script answers through), trimmed; null when none comes. */
function answer(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  process.stderr.write(question);
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      // Settled before closing: close emits 'close' at once, which settles null.
      resolve(line.trim());
      rl.close();
    });
    rl.once('close', () => resolve(null));
  });
}

/** A yes or a no; no answer at all is a no. */
const confirm = async (question: string): Promise<boolean> => /^y(es)?$/i.test((await answer(question)) ?? '');

export async function signCommand(artifactId: string, options: SignOptions): Promise<void> {
  let token: string | undefined;
  let provider: Provider | undefined;
  let code: number = EXIT.result;
  try {
    const interactive = process.stdin.isTTY === true && !options.passwordStdin;
    if (options.decision === 'needs-evidence' && (options.reason === undefined || options.reason.trim() === '')) {
      throw new Ending('--decision needs-evidence takes --reason: what evidence is missing (its writer is shown it)', EXIT.badArgument);
    }
    if (options.decision === 'needs-evidence' && (options.promote || options.category !== undefined)) {
      throw new Ending('--decision needs-evidence takes no --promote or --category', EXIT.badArgument);
    }
    if (!options.yes && options.passwordStdin) throw new Ending('stdin carries the password, so nothing is left to confirm on: pass --yes to sign once the body is shown', EXIT.badArgument);
    const url = await gateUrl(options);
    provider = await discover(url);
    token = await signIn(provider, options);
    const client = new ReviewerClient({ transport: 'rpc', baseUrl: url, bearer: token, allowPlainHttpLoopback: true, deadlineMs: 30_000 });
    try {
      const findings = await readBody(client, artifactId, interactive ? async () => void (await confirm('-- more (Enter) --')) : null);
      await approveOverFindings(findings, options);
      const question = options.decision === 'needs-evidence' ? 'Send it back to its writer for evidence?' : `Sign ${options.decision}${options.promote ? ' and promote' : ''}?`;
      if (!options.yes && !(await confirm(`${question} [y/N] `))) {
        throw new Ending('nothing signed', EXIT.errorObject);
      }
      const decision = options.decision;
      const result =
        decision === 'needs-evidence'
          ? await client.call('gv.request_evidence', { artifact_id: artifactId, reason: options.reason! })
          : await client.call('gv.sign', {
              artifact_id: artifactId,
              decision,
              ...(options.promote ? { promote: true } : {}),
              ...(options.reason === undefined ? {} : { reason: options.reason }),
              ...(options.category === undefined ? {} : { category: options.category as never }),
            });
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } finally {
      await client.close();
    }
  } catch (error) {
    code = error instanceof Ending ? error.code : clientErrorExit(error);
    process.stderr.write(`gate sign: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    // The sign-in was for this one act: its session ends here, whatever happened.
    if (token !== undefined && provider !== undefined) {
      await fetch(provider.revocation_endpoint, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    }
  }
  exitAfterWriting(process.stderr, '', code);
}

/** `gate call`'s statuses for what the client library reports. */
function clientErrorExit(error: unknown): number {
  if (!(error instanceof GateClientError)) return EXIT.errorObject;
  if (error.kind === 'transport') return EXIT.noGate;
  if (error.kind === 'timeout') return EXIT.noAnswerInTime;
  return EXIT.errorObject;
}
