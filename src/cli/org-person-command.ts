import { REFUSAL_CATEGORIES } from '../org/org-decision.js';
import { Ending, clientErrorExit } from './command-ending.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { showSubmission, type InboxItem } from './org-submission-view.js';
import { signOutOfOrg, withOrgSession, type OrgSession, type OrgSessionOptions } from './org-session.js';
import { confirm } from './terminal-answer.js';
import { decideOverFindings } from './shown-findings.js';
import { keptSessions, keptSessionsFile } from './kept-org-sessions.js';
import { shownIdentity, shownWithIdentity } from '../domain/shown-identity.js';

/** Runs a person's org command, ending it with gate sign's exit statuses and the message on stderr. */
async function run(name: string, body: () => Promise<string>): Promise<void> {
  try {
    exitAfterWriting(process.stdout, await body(), EXIT.result);
  } catch (error) {
    exitAfterWriting(process.stderr, `gate org ${name}: ${error instanceof Error ? error.message : String(error)}\n`, clientErrorExit(error));
  }
}

/** How an admin gives this person a role, for a person who has none to review with. */
const assignHint = (s: OrgSession) => {
  // iss|sub: the issuer is a URL and may hold no bar, so the subject is what follows the last one.
  const bar = s.you.identity.lastIndexOf('|');
  return `an admin of the organization makes you a reviewer with: gate org people assign --iss ${s.you.identity.slice(0, bar)} --sub ${s.you.identity.slice(bar + 1)} --role reviewer`;
};

/** Until when the sign-in is kept, and how to end it sooner. */
const keptLine = (s: OrgSession, url: string) =>
  s.keptUntil === null
    ? 'not kept: the issuer said nothing of when its token ends, so each gate org command signs you in again'
    : `kept until ${new Date(s.keptUntil).toISOString()} (its token's end) in ${keptSessionsFile()}: gate org review uses it with no new sign-in; gate org sign-out --url ${url} ends it sooner`;

/**
 * gate org sign-in: signs in at the issuer the organization trusts, whatever sign-in was kept
 * for it, and says who the organization takes the person for (gv.describe's `you`: the
 * iss|sub an admin assigns a role to, and the role), by the name and email their ID token
 * states beside it. The sign-in is kept for gate org review (org-session.ts).
 */
export function orgSignInCommand(options: OrgSessionOptions & { json?: boolean }): Promise<void> {
  return run('sign-in', () =>
    withOrgSession(
      options,
      'Go back to the terminal: it says who the organization takes you for.',
      async (s) => {
        const keptUntil = s.keptUntil === null ? null : new Date(s.keptUntil).toISOString();
        if (options.json) return `${JSON.stringify({ issuer: s.issuer, org_deployment_id: s.org, you: s.you, person: s.person, kept_until: keptUntil })}\n`;
        const shown = shownIdentity(s.you.identity, s.person);
        const who = shown === s.you.identity ? s.you.identity : `${shown}, known to the organization as ${s.you.identity}`;
        const lines = [`signed in at ${s.issuer} as ${who}: role ${s.you.role} at the organization ${s.org}`];
        if (s.you.role === 'reader') lines.push(assignHint(s));
        lines.push(keptLine(s, options.url));
        return `${lines.join('\n')}\n`;
      },
      true,
    ),
  );
}

/**
 * gate org sign-out: forgets the sign-in kept for the organization at --url (without it,
 * every one kept) and revokes its token at its issuer.
 */
export function orgSignOutCommand(options: { url?: string }): Promise<void> {
  return run('sign-out', async () => {
    const urls = options.url === undefined ? keptSessions().map((k) => k.url) : [options.url.replace(/\/+$/, '')];
    if (urls.length === 0) return 'no sign-in is kept for any organization\n';
    const lines: string[] = [];
    for (const url of urls) {
      const gone = await signOutOfOrg(url);
      lines.push(
        gone === null
          ? `no sign-in is kept for ${url}`
          : `signed out of the organization ${gone.org} at ${url}: the sign-in of ${shownWithIdentity(gone.identity, gone)} is forgotten here and its token revoked at ${gone.issuer}`,
      );
    }
    return `${lines.join('\n')}\n`;
  });
}

export interface OrgReviewOptions extends OrgSessionOptions {
  limit: number;
  member?: string;
  countersign?: boolean;
  refuse?: boolean;
  category?: string;
  reason?: string;
  yes?: boolean;
  overFindings?: boolean;
}

type Decision = { decision: 'countersign'; reason?: string } | { decision: 'refuse'; category: string; reason: string };

/** The decision the flags ask for, checked before anyone signs in. */
function decisionOf(artifactId: string | undefined, o: OrgReviewOptions): Decision | null {
  if (o.countersign && o.refuse) throw new Ending('--countersign or --refuse, not both', EXIT.badArgument);
  if (!o.countersign && !o.refuse) {
    if (o.category !== undefined) throw new Ending('--category belongs to --refuse', EXIT.badArgument);
    return null;
  }
  if (artifactId === undefined) throw new Ending('a decision names the submission: gate org review <artifact_id> --countersign | --refuse', EXIT.badArgument);
  if (o.countersign) {
    if (o.category !== undefined) throw new Ending('--category belongs to a refusal', EXIT.badArgument);
    return o.reason === undefined ? { decision: 'countersign' } : { decision: 'countersign', reason: o.reason };
  }
  if (o.reason === undefined || o.reason.trim() === '') throw new Ending("a refusal takes --reason: why, in words kept in the organization's log", EXIT.badArgument);
  if (o.category === undefined) throw new Ending(`a refusal takes --category: ${REFUSAL_CATEGORIES.join(', ')} (the one word the member is told)`, EXIT.badArgument);
  return { decision: 'refuse', category: o.category, reason: o.reason };
}

/** The member that submitted `artifactId`: --member, else the one undecided submission of it the inbox lists. */
async function memberOf(s: OrgSession, artifactId: string, member: string | undefined): Promise<string> {
  if (member !== undefined) return member;
  const inbox = (await s.client.call('gv.org_inbox', { limit: 100 })) as { items: InboxItem[] };
  const matching = inbox.items.filter((i) => i.artifact_id === artifactId);
  if (matching.length === 0) throw new Ending(`${artifactId} waits in no inbox row (decided already, erased, unknown, or past the oldest 100): name its member with --member to read it`, EXIT.errorObject);
  if (matching.length > 1) throw new Ending(`${matching.length} members submitted ${artifactId}: name one with --member ${matching.map((m) => m.member_deployment_id).join(' | ')}`, EXIT.badArgument);
  return matching[0]!.member_deployment_id;
}

/** What the organization did with the person's decision, in words (gv.org_review's answer: state, changed, waits_for). */
function decidedSentence(result: Record<string, unknown>, decision: 'countersign' | 'refuse', you: string): string {
  const waits = typeof result['waits_for'] === 'number' ? result['waits_for'] : null;
  if (waits !== null) {
    const more = waits === 1 ? 'one more person' : `${waits} more people`;
    return `${result['changed'] ? 'Recorded' : 'Recorded already'}: your ${decision} as ${you} waits for ${more} to ${decision} too.`;
  }
  if (result['changed'] !== true) return `Nothing changed: the submission was ${String(result['state'])} already.`;
  return `${decision === 'countersign' ? 'Countersigned' : 'Refused'} by ${you}.`;
}

/**
 * gate org review: the person signs in at the issuer the organization trusts, or uses the
 * sign-in kept for it (org-session.ts). Without an
 * artifact id it lists the undecided submissions (gv.org_inbox, decoded: nothing is taken,
 * so another reviewer's inbox still shows them, each with who holds it), and says for each
 * how the person's decision would count. With one, that submission is read (gv.org_submission)
 * and shown; with --countersign or --refuse it is taken (gv.org_take: held for the person
 * while they confirm, with y unless --yes) and decided by gv.org_review as the person: the
 * org's log records them (iss|sub) as the decider and the outcome carries authority_class
 * human. A person who acted on the row at the member is told so before anything is asked,
 * and nothing is taken.
 */
export function orgReviewCommand(artifactId: string | undefined, options: OrgReviewOptions): Promise<void> {
  return run('review', async () => {
    const decision = decisionOf(artifactId, options);
    if (decision !== null && !options.yes && options.passwordStdin) {
      throw new Ending('stdin carries the password, so nothing is left to confirm on: pass --yes to decide once the submission is shown', EXIT.badArgument);
    }
    const next =
      artifactId === undefined
        ? 'Go back to the terminal to read the submissions waiting for a decision.'
        : `Go back to the terminal to read the submission${decision === null ? '' : decision.decision === 'countersign' ? ' and countersign it' : ' and refuse it'}.`;
    return withOrgSession(options, next, async (s) => {
      if (s.you.role !== 'reviewer' && s.you.role !== 'admin') throw new Ending(`you are ${s.you.identity}, role ${s.you.role} at the organization: ${assignHint(s)}`, EXIT.errorObject);
      const me = s.you.identity;
      if (artifactId === undefined) {
        const inbox = (await s.client.call('gv.org_inbox', { limit: options.limit, decoded: true })) as { items: InboxItem[] };
        if (inbox.items.length === 0) return 'The inbox is empty: nothing waits for a decision.\n';
        const shown = inbox.items.map((item, n) => `${n + 1}. ${showSubmission(item, me).text}`);
        return `${shown.join('\n')}\nNothing is held for you by listing. Decide one (it is taken for you while you do): gate org review <artifact_id> --url ${options.url} --countersign, or --refuse --category C --reason WORDS\n`;
      }
      const member = await memberOf(s, artifactId, options.member);
      const item = (await s.client.call('gv.org_submission', { member_deployment_id: member, artifact_id: artifactId })) as unknown as InboxItem;
      const shown = showSubmission(item, me);
      process.stdout.write(shown.text);
      if (decision === null) return '';
      if (item.standing.counts === 'not') throw new Ending(`nothing decided: ${item.standing.says}`, EXIT.errorObject);
      // Held for the person while they read it again and confirm; another reviewer's inbox shows who holds it.
      await s.client.call('gv.org_take', { member_deployment_id: member, artifact_id: artifactId });
      if (decision.decision === 'countersign') await decideOverFindings(shown.findings, 'would hold this submission', { word: 'countersign', doing: 'countersigning', otherwise: 'decides nothing', ended: 'nothing decided' }, options);
      const act = decision.decision === 'countersign' ? 'Countersign' : `Refuse (${decision.category})`;
      const second = item.standing.counts === 'with_others' ? ', a decision that waits for more people' : '';
      // The person by their name and email, the identity the organization's log records beside it.
      const you = shownWithIdentity(me, s.person);
      if (!options.yes && !(await confirm(`${act} as ${you}${second}? [y/N] `))) {
        throw new Ending('nothing decided', EXIT.errorObject);
      }
      const result = (await s.client.call('gv.org_review', { member_deployment_id: member, artifact_id: artifactId, ...decision })) as Record<string, unknown>;
      // The sentence is the person's; the answer after it keeps `by` as the identity, for programs.
      return `${decidedSentence(result, decision.decision, you)}\n${JSON.stringify({ ...result, by: me }, null, 2)}\n`;
    });
  });
}
