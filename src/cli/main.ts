#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import { LOG_LEVELS } from '../log-levels.js';
import { SERVICE_VERSION } from '../gate.js';
import { serveCommand } from './serve-command.js';
import { callCommand } from './call-command.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { DEFAULT_CALL_TIMEOUT_MS, timeoutOption } from './socket-call.js';
import { verifyCommand } from './verify-command.js';
import { spaceCreateCommand } from './space-command.js';
import { configCommand } from './config-command.js';
import { pluginCommand } from './plugin-command.js';
import { operatorCallCommand, operatorKeygenCommand } from './operator-command.js';
import { peopleAddCommand, peopleListCommand, peopleRemoveCommand } from './people-command.js';

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
  .version(SERVICE_VERSION)
  .showHelpAfterError();

program
  .command('serve')
  .description('Start the gate: HTTP on 127.0.0.1 and the local socket, creating the home on first start.')
  .option('--home <dir>', 'the gate home (default: $GATE_HOME, else ~/.local/share/gate)')
  .option('--port <n>', 'TCP port (default: the config, else 8480; 0 picks a free port)', port)
  .addOption(new Option('--log-level <level>', 'least level logged (default: [log] level, else info; debug adds a line per request)').choices(LOG_LEVELS))
  .action(serveCommand);

program
  .command('call')
  .description(`Send one JSON-RPC message over the local socket and print the answer as JSON.\n${EXIT_CODES_HELP}`)
  .argument('<method>', 'the verb, e.g. gv.ping')
  .argument('[params]', 'the params as a JSON object')
  .option('--home <dir>', 'the gate home whose socket to use')
  .option('--timeout <ms>', `how long to wait for the answer, in ms (0: as long as it takes)`, timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
  .action(callCommand);

program
  .command('verify')
  .description('Verify the whole journal chain and every signature offline; report the first bad seq.')
  .option('--home <dir>', 'the gate home to verify')
  .option('--json', 'print the report as JSON')
  .action(verifyCommand);

program
  .command('space')
  .description('Operator commands for spaces.')
  .command('create')
  .description('Create a space (admin, through the socket); journals space-created.')
  .argument('<name>', 'the space name')
  .requiredOption('--policy <policy>', 'review policy: human, model or auto')
  .option('--owner <owner>', 'the owner (default: the calling identity)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(spaceCreateCommand);

program
  .command('config')
  .description(
    "Print the effective configuration and where each value comes from (default, file, env GATE_..., flag),\nas this command's environment and the home's gate.toml make it: a running gate's environment may differ.",
  )
  .option('--home <dir>', 'the gate home')
  .option('--json', 'print as JSON')
  .option('--diff', 'only the values that differ from the defaults')
  .action(configCommand);

const seconds = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0.1 || n > 3600) throw new InvalidArgumentError('seconds from 0.1 to 3600');
  return n;
};

program
  .command('plugin')
  .description(
    'The plugin tier: an MCP server over stdio for an agent harness, with a local store so remember and recall work with no gate;\nwhat it holds is forwarded, once per claim, when a gate is reachable.',
  )
  .option('--store <dir>', 'the local store (default: $GATE_PLUGIN_HOME, else ~/.local/share/gate-plugin)')
  .option('--session <name>', "this session's name; its work area is plugin/<name> (default: $GATE_PLUGIN_SESSION, else a fresh name)")
  .option('--home <dir>', "the gate home whose socket to forward to (default: $GATE_HOME, else ~/.local/share/gate)")
  .option('--url <url>', "forward over POST /rpc of this gate instead of the socket")
  .option('--key-env <name>', 'with --url: the environment variable holding the API key')
  .option('--forward-every <seconds>', 'how often to look for a gate while something waits to be forwarded', seconds, 5)
  .action(pluginCommand);
const people = program.command('people').description('Operator commands for people who sign in (admin, through the socket).');

people
  .command('add')
  .description('Add a person who signs in here with email and password; the password is asked without echo.')
  .argument('<email>', 'the email the person signs in with')
  .option('--role <role>', 'reader, agent, reviewer or admin (default: reader)')
  .option('--demo', 'mark the person demo (gv.describe you.demo)')
  .option('--name <name>', 'the name shown for the person')
  .option('--password-stdin', 'read the password from standard input instead of asking (for scripts)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(peopleAddCommand);

people
  .command('list')
  .description('List people and their roles (gv.people).')
  .option('--json', 'print the answer as JSON')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(peopleListCommand);

people
  .command('remove')
  .description('Remove a person: their role entry, their sign-in here and their open sessions.')
  .argument('<who>', "the person's email, or their subject (the part after | in their identity)")
  .option('--iss <issuer>', 'their issuer (default: this gate)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .action(peopleRemoveCommand);

const operator = program.command('operator').description('Operator proofs: a key of your own signs a fresh nonce for each operator-signed verb.');

operator
  .command('keygen')
  .description('Make an Ed25519 operator key: the private half to FILE (0600), the public half printed for [auth].operator_keys.')
  .requiredOption('--out <file>', 'where to write the private key (never overwritten)')
  .action(operatorKeygenCommand);

operator
  .command('call')
  .description(`Call an operator-signed verb over the socket: gv.challenge, sign the nonce with --key, send proof {nonce, sig}.\n${EXIT_CODES_HELP}`)
  .argument('<method>', 'the verb, e.g. gv.grant')
  .argument('[params]', 'the params as a JSON object (without proof)')
  .requiredOption('--key <file>', 'the operator private key (from gate operator keygen)')
  .option('--home <dir>', 'the gate home whose socket to use')
  .option('--timeout <ms>', `how long to wait for the answer, in ms (0: as long as it takes)`, timeoutOption, DEFAULT_CALL_TIMEOUT_MS)
  .action(operatorCallCommand);

await program.parseAsync(process.argv);
