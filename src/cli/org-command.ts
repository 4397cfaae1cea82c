import { Command, InvalidArgumentError, Option } from 'commander';
import { LOG_LEVELS } from '../log-levels.js';
import { openOrg, type OpenOrg, type OrgHomeOptions } from '../org/org-home.js';
import { addMember, issueStaffKey, listMembers, revokeMember } from '../org/org-members.js';
import { resetMemberChain } from '../org/member-chains.js';
import { verifyOrgLog } from '../org/org-log.js';
import { assignPerson, listPeople, ORG_PERSON_ROLES, removePerson, type OrgPersonRole } from '../org/org-people.js';
import { REFUSAL_CATEGORIES } from '../org/org-decision.js';
import { listenOrg } from '../org/org-server.js';
import { OrgHealth } from '../org/org-health.js';
import { createMetricsListener } from '../surfaces/metrics-listener.js';
import { parseListenAddress, reachableHost, urlHost } from '../config/listen-address.js';
import type { AddressInfo } from 'node:net';
import { later } from './later-action.js';
import { timeoutOption } from './socket-call.js';

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return n;
};

const fail = (command: string, error: unknown): never => {
  process.stderr.write(`gate org ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
};

/** The operator's identity in the org's log: whoever ran the command on this host. */
const operator = () => `uid:${process.getuid?.() ?? 'unknown'}`;

/** Opens the org (starting its embedded PostgreSQL only for this command when no org process runs it), runs, closes. */
async function withOrg<T>(command: string, options: OrgHomeOptions, work: (org: OpenOrg) => Promise<T>): Promise<T> {
  let org: OpenOrg | undefined;
  try {
    org = await openOrg(options, 2);
    return await work(org);
  } catch (error) {
    return fail(command, error);
  } finally {
    await org?.database.close();
  }
}

async function serveOrg(options: OrgHomeOptions & { port?: number; host?: string }): Promise<void> {
  let org: OpenOrg;
  try {
    org = await openOrg(options);
  } catch (error) {
    return fail('serve', error);
  }
  const health = new OrgHealth(org.pool);
  const listening = await listenOrg(org, options.port ?? 8490, options.host ?? '127.0.0.1', health).catch(async (error: unknown) => {
    await org.database.close();
    return fail('serve', error);
  });
  // org.metrics_address: /metrics (and the probes) with no credential, on an address of its own.
  const metricsAt = org.settings.metrics_address === '' ? null : parseListenAddress(org.settings.metrics_address);
  const metricsServer =
    metricsAt === null
      ? null
      : createMetricsListener(
          { livez: (res) => health.livez(res), readyz: (res) => health.readyz(res), metrics: (res) => health.metrics(res) },
          (error) => org.log.error('the metrics listener failed', error),
        );
  if (metricsServer !== null && metricsAt !== null) {
    await new Promise<void>((resolve, reject) => {
      metricsServer.once('error', reject);
      metricsServer.listen(metricsAt.port, metricsAt.host, resolve);
    }).catch(async (error: unknown) => {
      await listening.close();
      await org.database.close();
      return fail('serve', error);
    });
  }
  const metricsNote = metricsServer === null ? '' : ` metrics http://${urlHost(reachableHost(metricsAt!.host))}:${(metricsServer.address() as AddressInfo).port}/metrics`;
  process.stdout.write(`gate org listening on ${listening.url} deployment ${org.key.deploymentId}${metricsNote}\n`);
  org.log.info('listening', { url: listening.url, deployment: org.key.deploymentId, home: org.home, metrics: metricsNote === '' ? undefined : metricsNote.slice(' metrics '.length) });
  const stop = () => {
    org.log.info('shutting down');
    health.stop();
    metricsServer?.close();
    listening
      .close()
      .then(() => org.checks.close())
      .then(() => org.database.close())
      .then(() => {
        org.log.info('stopped');
        org.log.flush();
        process.exit(0);
      })
      .catch((error: unknown) => fail('serve', error));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const homeOptions = (c: Command) =>
  c
    .option('--home <dir>', 'the org home (default: $GATE_ORG_HOME, else ~/.local/share/gate-org)')
    .option('--database-url <url>', 'postgres://... (default: [org].database_url, $GATE_ORG_DATABASE_URL, else the embedded PostgreSQL in the home)');

/** What `gate org people list` says when nobody has a role, rather than nothing. */
export const NOBODY_AT_THE_ORG =
  'No people have a role at this organization gate yet: assign one with gate org people assign --iss ISSUER --sub SUBJECT --role reviewer, or name admins in [auth].admins.';

const print = (json: boolean | undefined, value: unknown, words: string) => process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${words}\n`);

export function orgCommand(): Command {
  const org = new Command('org').summary('the organization gate, on PostgreSQL').description('The organization gate: the second authority member gates submit to, on PostgreSQL.');

  homeOptions(
    org
      .command('serve')
      .description(
        "Serve PUT /submissions/{id}, PUT /retractions/{id}, GET /outcomes, /rpc (gv.describe, gv.org_inbox, gv.org_take, gv.org_submission, gv.org_review, gv.org_outcomes, gv.org_members, gv.org_people; org keys and person tokens) and the organization's console at /app (people sign in at an issuer [auth].trusted_issuers lists); migrations are applied at start. Logs on stderr: a line a request and one for every decision (JSON, or pretty on a terminal).",
      )
      .option('--port <n>', 'TCP port (default 8490; 0 picks a free port)', port)
      .option('--host <addr>', 'address to listen on (default 127.0.0.1; a load balancer in front needs a reachable one)')
      .option('--replica-url <url>', 'a streaming read replica GET /outcomes pages are read from (default: [org].replica_url, $GATE_ORG_REPLICA_URL, else the primary)')
      .addOption(new Option('--log-level <level>', 'least level logged on stderr (default: [log] level, else info: a line a request and one for every decision)').choices(LOG_LEVELS)),
  ).action(serveOrg);

  const member = org.command('member').description("The organization's member gates and their submit keys.");
  homeOptions(
    member
      .command('add')
      .description('Register a member gate and issue it a key with the submit scope (printed once; only its sha256 is kept).')
      .requiredOption('--deployment-id <id>', 'the member gate\'s deployment id ("gate serve" prints it; one starting with "-" is given as --deployment-id=<id>)')
      .requiredOption('--label <label>', 'who this member is')
      .option('--json', 'print as JSON'),
  ).action((o: OrgHomeOptions & { deploymentId: string; label: string; json?: boolean }) =>
    withOrg('member add', o, async (g) => {
      const added = await addMember(g.pool, g.key, o.deploymentId, o.label, operator());
      print(o.json, added, `member ${added.deployment_id} (${added.label}) key ${added.key}`);
    }),
  );
  homeOptions(member.command('list').description('Every member gate, revoked or not, with its live key count, and TWO CHAINS where its submissions showed two journals under its one deployment.').option('--json', 'print as JSON')).action(
    (o: OrgHomeOptions & { json?: boolean }) =>
      withOrg('member list', o, async (g) => {
        const members = await listMembers(g.pool);
        const fork = (m: (typeof members)[number]) => (m.forked === null ? '' : `\tTWO CHAINS from seq ${m.forked.seq} (seen ${m.forked.seen_at})`);
        print(o.json, members, members.map((m) => `${m.deployment_id}\t${m.label}\t${m.revoked ? 'revoked' : `${m.live_keys} key(s)`}${fork(m)}`).join('\n'));
      }),
  );
  homeOptions(
    member
      .command('revoke')
      .description("Revoke a member gate and every key it holds: its next request is refused 403.")
      .requiredOption('--deployment-id <id>', 'the member gate (one starting with "-" is given as --deployment-id=<id>)'),
  ).action((o: OrgHomeOptions & { deploymentId: string }) =>
    withOrg('member revoke', o, async (g) => {
      if (!(await revokeMember(g.pool, g.key, o.deploymentId, operator()))) fail('member revoke', `no live member ${o.deploymentId}`);
      process.stdout.write(`member ${o.deploymentId} revoked\n`);
    }),
  );

  homeOptions(
    member
      .command('chain-reset')
      .description(
        "Forget what a member's submissions showed of its journal, after TWO CHAINS: once its operator has stopped one of the two homes and kept the other, the kept chain's submissions are compared afresh (journaled in the org's log).",
      )
      .requiredOption('--deployment-id <id>', 'the member gate (one starting with "-" is given as --deployment-id=<id>)'),
  ).action((o: OrgHomeOptions & { deploymentId: string }) =>
    withOrg('member chain-reset', o, async (g) => {
      const forgotten = await resetMemberChain(g.pool, g.key, o.deploymentId, operator());
      process.stdout.write(`member ${o.deploymentId}: ${forgotten} seqs of its journal forgotten; its next submissions are compared afresh\n`);
    }),
  );

  const key = org.command('key').description("Keys for the organization's own people.");
  homeOptions(
    key
      .command('issue')
      .description('Issue a key for /rpc: scope review (role reviewer: gv.org_inbox, gv.org_take, gv.org_review; the person\'s copy of a content, never its raw bytes) or admin (role admin); its decisions are journaled as signer class agent.')
      .requiredOption('--scope <scope>', 'review or admin', (v: string) => {
        if (v !== 'review' && v !== 'admin') throw new InvalidArgumentError('review or admin');
        return v;
      })
      .requiredOption('--label <label>', 'whose key this is')
      .option('--json', 'print as JSON'),
  ).action((o: OrgHomeOptions & { scope: 'review' | 'admin'; label: string; json?: boolean }) =>
    withOrg('key issue', o, async (g) => {
      const issued = await issueStaffKey(g.pool, g.key, o.scope, o.label, operator());
      print(o.json, issued, `${issued.scope} key for ${issued.label}: ${issued.key}`);
    }),
  );

  const people = org.command('people').description("Roles of the organization's signed-in people (tokens of an issuer [auth].trusted_issuers lists).");
  const role = (v: string) => {
    if (!(ORG_PERSON_ROLES as readonly string[]).includes(v)) throw new InvalidArgumentError(ORG_PERSON_ROLES.join(', '));
    return v as OrgPersonRole;
  };
  const personOptions = (c: Command) =>
    homeOptions(
      c
        .requiredOption('--iss <issuer>', 'the issuer the person signs in at, exactly as it is listed in [auth].trusted_issuers')
        .requiredOption('--sub <subject>', "the person's subject there (gv.describe at the org's /rpc answers you.identity = iss|sub)"),
    );
  personOptions(
    people
      .command('assign')
      .description('Give a person a role at the organization: reviewer (gv.org_inbox, gv.org_take, gv.org_review), admin, or reader (nothing to decide).')
      .requiredOption('--role <role>', ORG_PERSON_ROLES.join(', '), role)
      .option('--json', 'print as JSON'),
  ).action((o: OrgHomeOptions & { iss: string; sub: string; role: OrgPersonRole; json?: boolean }) =>
    withOrg('people assign', o, async (g) => {
      const done = await assignPerson(g.pool, g.key, o.iss, o.sub, o.role, operator());
      print(o.json, done, `${done.identity} is ${done.role}${done.changed ? '' : ' (unchanged)'}`);
    }),
  );
  personOptions(people.command('remove').description('Take a person\'s role away: a reader again (or admin while [auth].admins names them).')).action(
    (o: OrgHomeOptions & { iss: string; sub: string }) =>
      withOrg('people remove', o, async (g) => {
        if (!(await removePerson(g.pool, g.key, o.iss, o.sub, operator()))) fail('people remove', `no role is assigned to ${o.iss}|${o.sub}`);
        process.stdout.write(`${o.iss}|${o.sub} removed\n`);
      }),
  );
  homeOptions(people.command('list').description('Every person with a role, then the admins [auth].admins names.').option('--json', 'print as JSON')).action(
    (o: OrgHomeOptions & { json?: boolean }) =>
      withOrg('people list', o, async (g) => {
        const listed = await listPeople(g.pool, g.auth.admins);
        print(o.json, listed, listed.length === 0 ? NOBODY_AT_THE_ORG : listed.map((p) => `${p.identity}\t${p.role}\t${p.source}`).join('\n'));
      }),
  );

  const signInOptions = (c: Command) =>
    c
      .requiredOption('--url <url>', "the organization gate's address (plain http only to a loopback host)")
      .addOption(
        new Option('--issuer <url>', "the issuer you sign in at, which the organization must trust (without it, the one the organization names at its GET /health, asked to confirm on a terminal; a script or --password-stdin names it)").env(
          'GATE_ORG_ISSUER',
        ),
      )
      .option('--client-id <id>', "the client this command signs in as at the issuer (default gate-cli, which every gate's own provider knows; at a company's provider, the public client registered for it)")
      .option('--email <email>', 'with --password-stdin: who signs in')
      .option('--password-stdin', "sign in without a browser: post the issuer's sign-in form with --email and the password read from stdin (a gate's own provider; scripts)")
      .option('--no-browser', 'print the sign-in address without trying to open a browser')
      .option('--timeout <ms>', 'how long to wait for the browser sign-in, in ms', timeoutOption, 300_000);
  const personExits = 'Exit 0 when done, 1 on a refusal (sign-in, role, or the organization), 2 when the organization or issuer does not answer, 3 on a bad argument.';
  const kept =
    "The sign-in is kept for the organization at --url until its token ends (an hour at a gate's own issuer), in $XDG_STATE_HOME/gate/org-sessions.json (else ~/.local/state/gate/, the file 0600): a later gate org review there uses it without a browser, as long as it is the same organization, the same issuer (--issuer, or the one you confirmed) and, with --email, the same person, and the organization accepts it; otherwise you sign in again. gate org sign-out forgets it and revokes its token at the issuer.";

  signInOptions(
    org
      .command('sign-in')
      .summary("sign in at the issuer the organization trusts; say who it takes you for")
      .description(
        [
          "Sign in as a person at the issuer the organization trusts: the one you name with --issuer (or GATE_ORG_ISSUER), which the organization must list in its [auth].trusted_issuers; without it, the one the organization names at its GET /health, once you confirm it on a terminal (a script, or --password-stdin, names it). The authorization code flow with PKCE, in your browser, the code coming back to a loopback listener of this command, as gate sign does at a gate. Your password, code and token go only to that issuer's own origin, over https unless it is on this machine's loopback.",
          "Signs in anew whatever sign-in was kept. Prints who the organization takes you for (gv.describe: your identity iss|sub, which an admin gives a role with gate org people assign, and your role), by the name and email your sign-in states beside it.",
          kept,
          personExits,
        ].join('\n\n'),
      )
      .option('--json', 'print {issuer, org_deployment_id, you} as JSON'),
  ).action(later(() => import('./org-person-command.js'), 'orgSignInCommand'));

  signInOptions(
    org
      .command('review')
      .summary("as a person: read the organization's inbox, countersign or refuse")
      .description(
        [
          "Review submissions as a person signed in at the issuer the organization trusts (as gate org sign-in). Without an artifact id: lists the undecided submissions (gv.org_inbox, up to --limit, oldest first; nothing is taken, so other reviewers see them too) and shows each one: the member, trust class, kind, who holds it and until when, the member's own approval, how your decision would count, and the content decoded, scanned and masked by the organization as a gate masks a person's copy (secrets and personal data hidden, the rest as written, hidden characters drawn), with every finding.",
          "With an artifact id: shows that submission (gv.org_submission), then, with --countersign or --refuse (--category and --reason both required), takes it for you (gv.org_take: held for [org].review_hold_s, which other reviewers see) and decides it with gv.org_review as you, confirmed with y unless --yes; without either flag it is only shown. Countersigning over findings that would hold the text at a gate (medium and above) asks you to type countersign (with --yes: --over-findings). The organization's log records you (iss|sub) as the decider and the outcome carries authority_class human; a review key's decision is an agent's.",
          "A person who wrote, signed or promoted the row at the member never decides it at the organization: you are told so before anything is asked, and nothing is taken. When the organization cannot tell whether you are that person (you sign in at another issuer, and no verified email tells you apart), your decision is recorded and waits for others' (a second person's, when the member names one person).",
          kept,
          personExits,
        ].join('\n\n'),
      )
      .argument('[artifact_id]', 'the submission to show and decide, sha256:...')
      .option('--member <deployment_id>', 'the member gate, when several submitted the same artifact id')
      .option('--countersign', 'countersign it')
      .option('--refuse', 'refuse it (takes --category and --reason)')
      .option('--category <category>', `with --refuse: ${REFUSAL_CATEGORIES.join(', ')} (the one word the member is told)`, (v: string) => {
        if (!(REFUSAL_CATEGORIES as readonly string[]).includes(v)) throw new InvalidArgumentError(REFUSAL_CATEGORIES.join(', '));
        return v;
      })
      .option('--reason <words>', "why, kept in the organization's log only (required to refuse)")
      .option('--limit <n>', 'how many undecided submissions to list, 1 to 10', (v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 10) throw new InvalidArgumentError('an integer from 1 to 10');
        return n;
      }, 10)
      .option('--yes', 'decide without asking once the submission is shown (needed when there is no terminal)')
      .option('--over-findings', 'with --yes: countersign even over findings that would hold it at a gate (without it, they are listed and nothing is decided; on a terminal you type countersign instead)'),
  ).action(later(() => import('./org-person-command.js'), 'orgReviewCommand'));

  org
    .command('sign-out')
    .summary('forget the sign-in kept for an organization and revoke its token')
    .description(
      [
        'Forget the sign-in gate org sign-in or gate org review kept for the organization at --url (without --url, every one kept), and revoke its token at its issuer (a provider that revokes nothing lets it end at its expiry). The next gate org review there signs you in again.',
        'Exit 0 (also when nothing was kept), 3 on a bad argument.',
      ].join('\n\n'),
    )
    .option('--url <url>', "the organization gate's address (without it: every organization a sign-in is kept for)")
    .action(later(() => import('./org-person-command.js'), 'orgSignOutCommand'));

  org
    .command('join')
    .summary('connect this running gate to an organization gate, no restart')
    .description(
      [
        "Connect the gate running on this home (over its socket, as admin) to an organization gate, as a member: gv.org_join asks the organization whether it answers as one (GET /health) and knows this gate's submit key (GET /outcomes names the key's member, which must be this gate), keeps the key in <home>/org-submit.key (0600, never journaled), saves [org].url, api_key_file and allow_plain_http_loopback (true for an http:// address, taken only to a loopback host) to gate.toml (journaled settings-saved) and applies them at once: the next gv.submit_drain sends there and the schedule pulls outcomes every [org].poll_every_ms, each pulled outcome logged.",
        "The key comes from the variable --key-env names, else it is asked without echo on a terminal, else read from stdin. Only the organization issues it (gate org member add, on a host that reaches its database): this command cannot ask for one.",
        "Refused, with nothing saved: an address that does not answer as an organization gate, a key it does not know or revoked, another member's key, an organization other than the one this gate pinned, an [org] key the environment sets (it would win over gate.toml).",
        'Exit 0 when joined, 1 on a refusal, 2 when no gate answers on the socket, 3 on a bad argument, 4 when the gate gave no answer in time.',
      ].join('\n\n'),
    )
    .argument('<url>', "the organization gate's address, e.g. https://org.example")
    .option('--key-env <name>', 'the environment variable holding the submit key (default: asked on a terminal, else read from stdin)')
    .option('--poll-every <ms>', 'how often to pull outcomes, in ms (saved as [org].poll_every_ms; 0: only gv.outcomes_pull; default: as configured, 60000)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 86_400_000) throw new InvalidArgumentError('whole milliseconds from 0 to 86400000');
      return n;
    })
    .option('--operator-key <file>', 'an operator key: sends an operator proof (needed once [auth].operator_keys lists a key)')
    .option('--home <dir>', 'the gate home whose socket to use')
    .option('--json', "print gv.org_join's answer as JSON")
    .option('--timeout <ms>', 'how long to wait for the answer, in ms (0: as long as it takes)', timeoutOption, 30_000)
    .action(later(() => import('./org-join-command.js'), 'orgJoinCommand'));

  homeOptions(org.command('verify').description("Verify the org's whole log: chain, ids and every signature against the org key.").option('--json', 'print as JSON')).action(
    (o: OrgHomeOptions & { json?: boolean }) =>
      withOrg('verify', o, async (g) => {
        const report = await verifyOrgLog(g.pool, g.key.deploymentId);
        print(o.json, { ...report, deployment_id: g.key.deploymentId }, report.ok ? `ok: ${report.events} events` : `bad at seq ${report.first_bad_seq}: ${report.problem}`);
        if (!report.ok) process.exitCode = 1;
      }),
  );
  return org;
}
