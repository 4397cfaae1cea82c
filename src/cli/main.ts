#!/usr/bin/env -S node --max-semi-space-size=32
// The line above is how the gate is launched: the bin, `npm start` (which runs this file) and
// bench/ (which reads the line) all run it with V8's young generation at 32 MiB a semispace
// (Node 20's default is 16). An ingest allocates ~70 KB of short-lived objects; at 16 MiB the
// main thread scavenged every ~100 ms, ~5% of its time under load (issue 16, docs/performance.md,
// the ingest CPU row). V8 sizes its heap once, at start, so this cannot be set from inside.
import { Command, InvalidArgumentError, Option } from 'commander';
import { LOG_LEVELS } from '../log-levels.js';
import { SERVICE_VERSION } from '../version.js';
import { later } from './later-action.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { DEFAULT_CALL_TIMEOUT_MS, timeoutOption } from './socket-call.js';
import { orgCommand } from './org-command.js';
import { PROOF_EXIT_HELP } from './proof-exit-help.js';
import { count } from './count-option.js';
import { polishHelp } from './help-format.js';

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return n;
};

// A reader that stops early (`gate config | head`) closes the pipe: its choice, not an error to print a stack for.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = new Command('gate')
  .description('Gate: scans, quarantines, reviews and promotes what AI agents propose; every change is a signed journal event.')
  .version(SERVICE_VERSION);

program
  .command('serve')
  .summary('start the gate: HTTP and the local socket')
  .description(
    'Start the gate: HTTP on one loopback port (127.0.0.1 unless --host or [server] host says otherwise) and the local socket, creating the home on first start. Behind a reverse proxy: [server] trusted_proxies and public_url (docs/operations.md, "Deploying").',
  )
  .option('--home <dir>', 'the gate home (default: $GATE_HOME, else ~/.local/share/gate)')
  .option('--port <n>', 'TCP port (default: the config, else 8480; 0 picks a free port)', port)
  .option('--host <addr>', 'address to listen on (default: [server] host, else 127.0.0.1; 0.0.0.0 or :: for every address)')
  .addOption(new Option('--log-level <level>', 'least level logged (default: [log] level, else info; debug adds a line per request)').choices(LOG_LEVELS))
  .action(later(() => import('./serve-command.js'), 'serveCommand'));

program
  .command('call')
  .summary('send one verb over the local socket, print the answer')
  .description(`Send one JSON-RPC message over the local socket and print the answer as JSON.\n\n${EXIT_CODES_HELP}`)
  .argument('<method>', 'the verb, e.g. gv.ping')
  .argument('[params]', 'the params as a JSON object')
  .option('--home <dir>', 'the gate home whose socket to use')
  .option('--timeout <ms>', `how long to wait for the answer, in ms (0: as long as it takes)`, timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
  .action(later(() => import('./call-command.js'), 'callCommand'));

program
  .command('verify')
  .summary('verify the journal chain and its signatures offline')
  .description('Verify the whole journal chain and every signature offline; report the first bad seq.')
  .option('--home <dir>', 'the gate home to verify')
  .option('--json', 'print the report as JSON')
  .action(later(() => import('./verify-command.js'), 'verifyCommand'));

program
  .command('proof')
  .summary("check the journal's proofs offline")
  .description("Offline checks of the journal's proofs with the deployment id alone (no home, no gate).")
  .command('verify')
  .description(
    [
      [
        'Verify a saved answer: a checkpoint note (text), or an answer of gv.why or gv.audit (every event proven in its checkpoint),',
        'or of gv.checkpoint (its size and root signed; its inclusion proof; with --since, its consistency proof from a kept checkpoint),',
        'or of gv.collection (its signature, the checkpoint it was cut at, its publish event proven in the journal, and its rows: a whole',
        'collection in one page against the signed rows root, or one row by its membership proof).',
      ].join(' '),
      'A file holds what `gate call` prints or the result alone; - reads standard input.',
      PROOF_EXIT_HELP,
    ].join('\n\n'),
  )
  .argument('<file>', 'the saved answer or checkpoint note')
  .requiredOption('--deployment-id <id>', "the deployment's id (its public key, as gv.ping and GET /identity say)")
  .option('--since <file>', 'an older checkpoint kept earlier (a note, or a saved answer carrying one): prove the newer extends it')
  .action(later(() => import('./proof-command.js'), 'proofVerifyCommand'));

const space = program.command('space').summary('create and list spaces (operator)').description('Operator commands for spaces, through the socket.');

space
  .command('create')
  .description('Create a space (admin, through the socket); journals space-created.')
  .argument('<name>', 'the space name')
  .requiredOption('--policy <policy>', 'review policy: human, model or auto')
  .option('--owner <owner>', 'the owner (default: the calling identity)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(later(() => import('./space-command.js'), 'spaceCreateCommand'));

space
  .command('list')
  .description(`List the spaces with their review policy, owner and rows (gv.spaces, as the operator).\n\n${EXIT_CODES_HELP}`)
  .option('--json', "print gv.spaces' answer as JSON")
  .option('--home <dir>', 'the gate home whose socket to use')
  .option('--timeout <ms>', 'how long to wait for the answer, in ms (0: as long as it takes)', timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
  .action(later(() => import('./space-command.js'), 'spaceListCommand'));

program
  .command('config')
  .summary('print the effective configuration and its sources')
  .description(
    "Print the effective configuration and where each value comes from (default, file, env GATE_..., flag), as this command's environment and the home's gate.toml make it: a running gate's environment may differ.",
  )
  .option('--home <dir>', 'the gate home')
  .option('--json', 'print as JSON')
  .option('--diff', 'only the values that differ from the defaults')
  .action(later(() => import('./config-command.js'), 'configCommand'));

const seconds = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0.1 || n > 3600) throw new InvalidArgumentError('seconds from 0.1 to 3600');
  return n;
};

program
  .command('plugin')
  .summary('an MCP server over stdio for an agent harness')
  .description(
    'The plugin tier: an MCP server over stdio for an agent harness, with a local store so remember and recall work with no gate; what it holds is forwarded, once per claim, when a gate is reachable.',
  )
  .option('--store <dir>', 'the local store (default: $GATE_PLUGIN_HOME, else ~/.local/share/gate-plugin)')
  .option('--session <name>', "this session's name; its work area is plugin/<name> (default: $GATE_PLUGIN_SESSION, else a fresh name)")
  .option('--home <dir>', "the gate home whose socket to forward to (default: $GATE_HOME, else ~/.local/share/gate)")
  .option('--url <url>', "forward over POST /rpc of this gate instead of the socket")
  .option('--key-env <name>', 'with --url: the environment variable holding the API key')
  .option('--forward-every <seconds>', 'how often to look for a gate while something waits to be forwarded', seconds, 5)
  .action(later(() => import('./plugin-command.js'), 'pluginCommand'));
program
  .command('runner')
  .summary("host crews: run their command for each routed question")
  .description(
    [
      [
        "Host crews for a gate: say hello (gate.runner-hello/1) on the runner's poll intervals, take its crews' member keys and",
        "its token, and run the crew's command for each routed question in a fresh work directory under workdir_root, with the",
        'member key and the question in its environment; forward its answer as an answer/1 row, or refer the question to people.',
        'Settings come from the gate (gv.runner_set). Runs until SIGTERM or SIGINT, which stop running commands with grace_seconds.',
      ].join(' '),
      [
        "The day's spending of budget_per_day (seconds of command time per UTC day) is kept in --state-dir and read at start;",
        'once it is spent no command starts and each routed question is referred to people with the reason.',
      ].join(' '),
      'Exit 0 when stopped, 3 on a bad argument, a missing key or an unreadable state file.',
    ].join('\n\n'),
  )
  .requiredOption('--url <url>', "the gate's base URL (plain http only to a loopback host)")
  .option('--key-env <name>', 'the environment variable holding the runner key (a gk_ key of role runner)', 'GATE_RUNNER_KEY')
  .option('--crews <n>', 'crews this host can run at once (reported as capacity)', count(16), 4)
  .option('--members <n>', 'members this host can run at once (reported as capacity)', count(64), 16)
  .option('--harness <command>', 'the agent harness command to look for on PATH and report', 'claude')
  .option('--state-dir <dir>', "where the day's spending is kept, budget-<key id>.json (default: $GATE_RUNNER_STATE_DIR, else ~/.local/state/gate-runner)")
  .action(later(() => import('./runner-command.js'), 'runnerCommand'));

const people = program
  .command('people')
  .summary('add, list and remove people who sign in (operator)')
  .description('Operator commands for people who sign in (admin, through the socket).');

people
  .command('add')
  .description('Add a person who signs in here with email and password; the password is asked without echo.')
  .argument('<email>', 'the email the person signs in with')
  .option('--role <role>', 'reader, agent, reviewer or admin (default: reader)')
  .option('--demo', 'mark the person demo (gv.describe you.demo)')
  .option('--name <name>', 'the name shown for the person')
  .option('--password-stdin', 'read the password from standard input instead of asking (for scripts)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(later(() => import('./people-command.js'), 'peopleAddCommand'));

people
  .command('list')
  .description('List people and their roles (gv.people).')
  .option('--json', 'print the answer as JSON')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(later(() => import('./people-command.js'), 'peopleListCommand'));

people
  .command('remove')
  .description('Remove a person: their role entry, their sign-in here and their open sessions.')
  .argument('<who>', "the person's email, or their subject (the part after | in their identity)")
  .option('--iss <issuer>', 'their issuer (default: this gate)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(later(() => import('./people-command.js'), 'peopleRemoveCommand'));

const operator = program
  .command('operator')
  .summary('operator keys and operator-signed calls')
  .description('Operator proofs: a key of your own signs a fresh nonce for each operator-signed verb.');

operator
  .command('keygen')
  .description('Make an Ed25519 operator key: the private half to FILE (0600), the public half printed for [auth].operator_keys.')
  .requiredOption('--out <file>', 'where to write the private key (never overwritten)')
  .action(later(() => import('./operator-command.js'), 'operatorKeygenCommand'));

operator
  .command('call')
  .description(`Call an operator-signed verb over the socket: gv.challenge, sign the nonce with --key, send proof {nonce, sig}.\n\n${EXIT_CODES_HELP}`)
  .argument('<method>', 'the verb, e.g. gv.grant')
  .argument('[params]', 'the params as a JSON object (without proof)')
  .requiredOption('--key <file>', 'the operator private key (from gate operator keygen)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .option('--timeout <ms>', `how long to wait for the answer, in ms (0: as long as it takes)`, timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
  .action(later(() => import('./operator-command.js'), 'operatorCallCommand'));

const grant = program
  .command('grant')
  .summary('per-space capabilities of a principal (operator)')
  .description(
    'Per-space capabilities (read, contribute, submit) of a principal, over the socket (admin): gv.grant and gv.grants. A principal is key:<key_id>, uid:<n>, <iss>|<sub>, or the email of a person in gate people list.',
  );

for (const action of ['issue', 'revoke'] as const) {
  grant
    .command(action)
    .summary(`${action === 'issue' ? 'issue' : 'revoke'} capabilities on a space ${action === 'issue' ? 'to' : 'from'} a principal`)
    .description(`${action === 'issue' ? 'Issue' : 'Revoke'} capabilities on a space ${action === 'issue' ? 'to' : 'from'} a principal (gv.grant ${action}).\n\n${EXIT_CODES_HELP}`)
    .argument('<principal>', 'key:<key_id>, uid:<n>, <iss>|<sub>, or a person\'s email')
    .argument('<space>', 'the space (it must exist: gate space create)')
    .argument('<capabilities>', 'a comma list of read, contribute, submit')
    .option('--key <file>', 'an operator key: sends an operator proof (needed once [auth].operator_keys lists a key)')
    .option('--json', "print gv.grant's answer as JSON")
    .option('--home <dir>', 'the gate home whose socket to use')
    .option('--timeout <ms>', 'how long to wait for the answer, in ms (0: as long as it takes)', timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
    .action(async (...args: Parameters<ReturnType<typeof import('./grant-command.js').grantChangeCommand>>) => {
      const { grantChangeCommand } = await import('./grant-command.js');
      await grantChangeCommand(action)(...args);
    });
}

grant
  .command('list')
  .summary('list grants')
  .description(`List grants (gv.grants), and principals refused for want of one.\n\n${EXIT_CODES_HELP}`)
  .option('--principal <principal>', 'only this principal (an email is looked up)')
  .option('--space <space>', 'only this space')
  .option('--json', 'print the answer as JSON')
  .option('--home <dir>', 'the gate home whose socket to use')
  .option('--timeout <ms>', 'how long to wait for the answer, in ms (0: as long as it takes)', timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
  .action(later(() => import('./grant-command.js'), 'grantListCommand'));

const decision = (value: string) => {
  if (!['approve', 'reject', 'archive', 'needs-evidence'].includes(value)) throw new InvalidArgumentError('approve, reject, archive or needs-evidence');
  return value;
};

program
  .command('sign')
  .summary('sign a row as a person, signed in in your browser')
  .description(
    [
      [
        "Sign a row as a person: signs you in at the gate's own sign-in provider in your browser (authorization code with PKCE,",
        'the code coming back to a loopback listener of this command), shows you the whole body page by page (gv.node body: true:',
        "a signature counts only from someone served all of it) and what the scanner found, asks, then calls gv.sign with your token and signs you out.",
        'Approving over findings that held the row asks you to type approve (with --yes: --over-findings).',
        'With --decision needs-evidence and --reason it sends the row back to its writer for evidence instead (gv.request_evidence; NEEDS_EVIDENCE until the writer adds it).',
        'The row\'s requests for evidence, and what answered each, are listed above its body.',
      ].join(' '),
      'Exit 0 when signed, 1 on a refusal (sign-in or gv.sign), 2 when no gate answers, 3 on a bad argument, 4 when the gate gave no answer in time.',
    ].join('\n\n'),
  )
  .argument('<artifact_id>', 'the row to sign, sha256:...')
  .option('--decision <decision>', 'approve, reject, archive, or needs-evidence (send it back to its writer, with --reason)', decision, 'approve')
  .option('--promote', 'promote in the same act when the quorum is met (gv.sign promote: true)')
  .option('--reason <words>', 'why, kept in the journal only; with needs-evidence: what evidence is missing, shown to the writer')
  .option('--category <category>', 'with reject: off-scope, quality, policy, duplicate or unreadable')
  .option('--url <url>', "the gate's address (default: what the home's gate says it listens on)")
  .option('--home <dir>', 'the gate home whose socket tells the address')
  .option('--email <email>', 'with --password-stdin: who signs in')
  .option('--password-stdin', 'sign in without a browser: post the sign-in form with --email and the password read from stdin (scripts)')
  .option('--no-browser', 'print the sign-in address without trying to open a browser')
  .option('--yes', 'sign without asking once the body is shown (needed when there is no terminal)')
  .option('--over-findings', 'with --yes: approve even over findings that held the row (without it, they are listed and nothing is signed; on a terminal you type approve instead)')
  .option('--timeout <ms>', 'how long to wait for the browser sign-in, in ms', timeoutOption, 300_000)
  .action(later(() => import('./sign-command.js'), 'signCommand'));

program.addCommand(orgCommand());

polishHelp(program);

await program.parseAsync(process.argv);
