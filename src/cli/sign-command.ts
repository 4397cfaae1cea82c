import { resolveHome } from '../config/home.js';
import { type GateClient, ReviewerClient } from '@gate/client';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { Ending, clientErrorExit } from './command-ending.js';
import { discoverProvider, signInWithPkce, signOut, type SignInProvider } from './pkce-sign-in.js';
import { confirm } from './terminal-answer.js';
import { decideOverFindings } from './shown-findings.js';
import { socketCall } from './socket-call.js';
import { withHiddenShown } from '../domain/hidden-characters.js';
import type { PlacedFinding } from '../projections/artifact-reads.js';
import { shownWithIdentity, type IdentityNames } from '../domain/shown-identity.js';
import { namesOf } from './names-of.js';

export interface SignOptions {
  /** needs-evidence sends the row back to its writer (gv.request_evidence) with --reason saying what is missing. */
  decision: 'approve' | 'reject' | 'archive' | 'confirm' | 'needs-evidence';
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
      const requests = Array.isArray(page['evidence']) ? (page['evidence'] as EvidenceRequest[]) : [];
      process.stdout.write(evidenceLines(requests, await namesOf(client, requests.map((r) => r.by))));
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

type EvidenceRequest = { by: string | null; asks: string; answered: { attachments: Array<{ name: string | null; sha256: string }> } | null };

/** The row's requests for evidence, one a line with who asked and what answered it; drawn, as the body is. */
function evidenceLines(requests: EvidenceRequest[], names: ReadonlyMap<string, IdentityNames>): string {
  return requests
    .map((r) => {
      const answer = r.answered === null ? 'waiting for its writer' : `answered with ${r.answered.attachments.map((a) => a.name ?? a.sha256).join(', ')}`;
      return `Evidence asked by ${r.by === null ? 'the deployment' : shownWithIdentity(r.by, names.get(r.by))}: ${withHiddenShown(r.asks)} (${answer})\n`;
    })
    .join('');
}

export async function signCommand(artifactId: string, options: SignOptions): Promise<void> {
  let token: string | undefined;
  let provider: SignInProvider | undefined;
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
    provider = await discoverProvider(url, `${url} is not a sign-in provider: set [auth].issuer in its gate.toml`);
    token = (await signInWithPkce(provider, options, options.decision === 'needs-evidence' ? 'Go back to the terminal to read the row and send it back for evidence.' : 'Go back to the terminal to read the row and sign it.')).accessToken;
    const client = new ReviewerClient({ transport: 'rpc', baseUrl: url, bearer: token, allowPlainHttpLoopback: true, deadlineMs: 30_000 });
    try {
      const findings = await readBody(client, artifactId, interactive ? async () => void (await confirm('-- more (Enter) --')) : null);
      if (options.decision === 'approve') await decideOverFindings(findings, 'held this row', { word: 'approve', doing: 'approving', otherwise: 'signs nothing', ended: 'nothing signed' }, options);
      const question =
        options.decision === 'needs-evidence'
          ? 'Send it back to its writer for evidence?'
          : options.decision === 'confirm'
            ? 'Confirm the finding and keep the row held?'
            : `Sign ${options.decision}${options.promote ? ' and promote' : ''}?`;
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
    code = clientErrorExit(error);
    process.stderr.write(`gate sign: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    // The sign-in was for this one act: its session ends here, whatever happened.
    if (token !== undefined && provider !== undefined) await signOut(provider, token);
  }
  exitAfterWriting(process.stderr, '', code);
}
