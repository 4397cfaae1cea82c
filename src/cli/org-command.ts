import { Command, InvalidArgumentError } from 'commander';
import { openOrg, type OpenOrg, type OrgHomeOptions } from '../org/org-home.js';
import { addMember, issueStaffKey, listMembers, revokeMember } from '../org/org-members.js';
import { verifyOrgLog } from '../org/org-log.js';
import { assignPerson, listPeople, ORG_PERSON_ROLES, removePerson, type OrgPersonRole } from '../org/org-people.js';
import { listenOrg } from '../org/org-server.js';

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
  const listening = await listenOrg(org, options.port ?? 8490, options.host ?? '127.0.0.1').catch(async (error: unknown) => {
    await org.database.close();
    return fail('serve', error);
  });
  process.stdout.write(`gate org listening on ${listening.url} deployment ${org.key.deploymentId}\n`);
  const stop = () => {
    listening
      .close()
      .then(() => org.checks.close())
      .then(() => org.database.close())
      .then(() => process.exit(0))
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
      .description('Serve PUT /submissions/{id}, GET /outcomes and /rpc (gv.describe, gv.org_inbox, gv.org_review; org keys and person tokens); migrations are applied at start.')
      .option('--port <n>', 'TCP port (default 8490; 0 picks a free port)', port)
      .option('--host <addr>', 'address to listen on (default 127.0.0.1; a load balancer in front needs a reachable one)')
      .option('--replica-url <url>', 'a streaming read replica GET /outcomes pages are read from (default: [org].replica_url, $GATE_ORG_REPLICA_URL, else the primary)'),
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
  homeOptions(member.command('list').description('Every member gate, revoked or not, with its live key count.').option('--json', 'print as JSON')).action(
    (o: OrgHomeOptions & { json?: boolean }) =>
      withOrg('member list', o, async (g) => {
        const members = await listMembers(g.pool);
        print(o.json, members, members.map((m) => `${m.deployment_id}\t${m.label}\t${m.revoked ? 'revoked' : `${m.live_keys} key(s)`}`).join('\n'));
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

  const key = org.command('key').description("Keys for the organization's own people.");
  homeOptions(
    key
      .command('issue')
      .description('Issue a key for /rpc: scope review (role reviewer: gv.org_inbox, gv.org_review) or admin (role admin); its decisions are journaled as signer class agent.')
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
      .description('Give a person a role at the organization: reviewer (gv.org_inbox, gv.org_review), admin, or reader (nothing to decide).')
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
