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
  .option('--takeover', 'start a home that was placed elsewhere (a restored backup, a moved home) as the gate from now on; journaled. Never while the original still runs')
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
  .description(
    [
      'Verify the whole journal chain and every signature offline (following the key rotations), and the stored log tree; report the first bad seq.',
      'With --against, verify another journal of the deployment too (a copy, a backup, a second home) and say how the two stand: the same, one an earlier copy of the other, or two chains under one deployment (FORK, exit 1).',
      'Exit 0 when everything verifies, 1 when something does not (or on a fork), 2 when there is no journal.',
    ].join('\n\n'),
  )
  .option('--home <dir>', 'the gate home to verify')
  .option('--against <path>', 'another home, a backup folder, or a gate.db: verify it and compare the two chains')
  .option('--deployment-id <id>', "the deployment's id, to prove the chain from (default: what its first event names)")
  .option('--json', 'print the report as JSON')
  .action(later(() => import('./verify-command.js'), 'verifyCommand'));

const backup = program
  .command('backup')
  .summary('copy a home, running or not, into a verified backup')
  .description(
    [
      'Copy a home, running or stopped, into DEST (a new or empty folder): gate.db as one consistent snapshot (SQLite\'s online backup), the deployment key, people.json, gate.toml, the organization key, and the attachment objects the snapshot names; then verify the copy (the chain, every signature, SQLite\'s quick_check, every file\'s sha256) and write backup.json. The held-rows index is not copied: a start writes it again.',
      'The backup holds the deployment\'s private key and people\'s password hashes: keep it as you keep the home.',
      'Exit 0 when the backup is made and verified, 1 otherwise.',
    ].join('\n\n'),
  )
  .argument('<dest>', 'the folder to write the backup into (absent or empty)')
  .option('--home <dir>', 'the gate home to copy (default: $GATE_HOME, else ~/.local/share/gate)')
  .action(later(() => import('./backup-command.js'), 'backupCommand'));

backup
  .command('verify')
  .description('Check a backup folder again, as gate restore does: backup.json, every file\'s sha256, the chain and every signature, quick_check, the attachment objects. Exit 0 when it holds, 1 otherwise.')
  .argument('<dir>', 'the backup folder')
  .action(later(() => import('./backup-command.js'), 'backupVerifyCommand'));

program
  .command('restore')
  .summary('prepare a home from a backup')
  .description(
    [
      'Verify a backup made by gate backup and prepare a home from it (the home must be new or empty). The first start journals the restore.',
      'A home knows where it lives: restored where the backed-up home lived (the same machine and path, after losing the disk), it starts as it is; restored anywhere else it starts only with gate serve --takeover, which journals that this copy is the gate from now on. The command says which.',
      'Exit 0 when restored, 1 when the backup does not verify or the home is not empty.',
    ].join('\n\n'),
  )
  .argument('<src>', 'the backup folder')
  .option('--home <dir>', 'the home to prepare (default: $GATE_HOME, else ~/.local/share/gate)')
  .action(later(() => import('./backup-command.js'), 'restoreCommand'));

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
  .summary('add, list, reset or remove people (operator)')
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
  .command('reset')
  .description(
    [
      'Reset the password of a person who signs in here, keeping who they are: the same identity, role, grants and past signatures (gv.person_reset, journaled). Their open sign-in sessions end.',
      'Without --link the new password is asked twice without echo (or read from stdin with --password-stdin); with --link the command prints a one-time link, usable for 24 hours, with which the person sets their own password (their sessions end when they use it).',
      EXIT_CODES_HELP,
    ].join('\n\n'),
  )
  .argument('<email>', 'the email the person signs in with')
  .option('--link', 'print a one-time link for the person to set their own password, instead of setting one')
  .option('--password-stdin', 'read the new password from standard input instead of asking (for scripts)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(later(() => import('./people-command.js'), 'peopleResetCommand'));

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

program
  .command('vacuum')
  .summary("give a stopped gate's free pages back to the disk")
  .description(
    [
      "Rewrite gate.db and held-index.db without their free pages (SQLite's VACUUM, after the WAL is copied in and cut to nothing): what erasures, rows leaving the held index and views dropped at an upgrade freed. Each file's size before and after is printed.",
      'The gate must be stopped. VACUUM needs about the file\'s size again in free space while it runs, and takes about as long as copying it.',
      'Exit 0 when done, 1 when a gate runs, 2 when there is no home.',
    ].join('\n\n'),
  )
  .option('--home <dir>', 'the gate home (default: $GATE_HOME, else ~/.local/share/gate)')
  .action(later(() => import('./vacuum-command.js'), 'vacuumCommand'));

const key = program.command('key').summary("rotate the deployment's signing key").description("The deployment's signing key (deployment.key in the home).");

key
  .command('rotate')
  .description(
    [
      "Hand the deployment's signing to a new key, for the day the old one leaks: a key-rotated event signed by the old key names the new one, every later event is signed by the new key, and deployment.key is replaced (the old private key is gone). Signatures made before still verify; gate verify, the answers' proofs and the organization follow the rotation. The deployment id stays the first key's.",
      'The gate must be stopped. Access tokens signed by the old key are refused afterwards (refresh tokens keep working), and event cursors given out before are refused.',
      'Exit 0 when rotated, 1 when a gate runs or the rotation failed, 2 when there is no home.',
    ].join('\n\n'),
  )
  .option('--home <dir>', 'the gate home (default: $GATE_HOME, else ~/.local/share/gate)')
  .action(later(() => import('./key-command.js'), 'keyRotateCommand'));

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
  if (!['approve', 'reject', 'archive', 'confirm', 'needs-evidence'].includes(value)) throw new InvalidArgumentError('approve, reject, archive, confirm or needs-evidence');
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
        'On a row a scanner finding holds, --decision confirm says the finding is real: the row stays held, and gv.approval says a person confirmed it.',
        'The row\'s requests for evidence, and what answered each, are listed above its body.',
      ].join(' '),
      'Exit 0 when signed, 1 on a refusal (sign-in or gv.sign), 2 when no gate answers, 3 on a bad argument, 4 when the gate gave no answer in time.',
    ].join('\n\n'),
  )
  .argument('<artifact_id>', 'the row to sign, sha256:...')
  .option('--decision <decision>', 'approve, reject, archive, confirm (a flagged row: the finding holds, the row stays held), or needs-evidence (send it back to its writer, with --reason)', decision, 'approve')
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
