import { REFUSAL_CATEGORIES } from '../org/org-decision.js';
import { Ending, clientErrorExit } from './command-ending.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { showSubmission, type InboxItem } from './org-submission-view.js';
import { withOrgSession, type OrgSession, type OrgSessionOptions } from './org-session.js';
import { confirm } from './terminal-answer.js';
import { decideOverFindings } from './shown-findings.js';

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

/**
 * gate org sign-in: signs in at the issuer the organization trusts and says who the org
 * takes the person for (gv.describe's `you`: the iss|sub an admin assigns a role to, and the
 * role), then signs out: nothing is kept, each gate org review signs in for itself.
 */
export function orgSignInCommand(options: OrgSessionOptions & { json?: boolean }): Promise<void> {
  return run('sign-in', () =>
    withOrgSession(options, 'Go back to the terminal: it says who the organization takes you for, and signs you out again.', async (s) => {
      if (options.json) return `${JSON.stringify({ issuer: s.issuer, org_deployment_id: s.org, you: s.you })}\n`;
      const lines = [`signed in at ${s.issuer} as ${s.you.identity}: role ${s.you.role} at the organization ${s.org}`];
      if (s.you.role === 'reader') lines.push(assignHint(s));
      lines.push('signed out again: nothing is kept; gate org review signs you in for each review');
      return `${lines.join('\n')}\n`;
    }),
  );
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

/**
 * gate org review: the person signs in at the issuer the organization trusts. Without an
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
      if (!options.yes && !(await confirm(`${act} as ${me}${second}? [y/N] `))) {
        throw new Ending('nothing decided', EXIT.errorObject);
      }
      const result = await s.client.call('gv.org_review', { member_deployment_id: member, artifact_id: artifactId, ...decision });
      return `${JSON.stringify({ ...result, by: me }, null, 2)}\n`;
    });
  });
}
