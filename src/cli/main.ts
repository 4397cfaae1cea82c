#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { SERVICE_VERSION } from '../gate.js';
import { serveCommand } from './serve-command.js';
import { callCommand } from './call-command.js';
import { verifyCommand } from './verify-command.js';
import { spaceCreateCommand } from './space-command.js';
import { configCommand } from './config-command.js';

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return n;
};

const program = new Command('gate')
  .description('Gate: scans, quarantines, reviews and promotes what AI agents propose; every change is a signed journal event.')
  .version(SERVICE_VERSION)
  .showHelpAfterError();

program
  .command('serve')
  .description('Start the gate: HTTP on 127.0.0.1 and the local socket, creating the home on first start.')
  .option('--home <dir>', 'the gate home (default: $GATE_HOME, else ~/.local/share/gate)')
  .option('--port <n>', 'TCP port (default: the config, else 8480; 0 picks a free port)', port)
  .action(serveCommand);

program
  .command('call')
  .description('Send one JSON-RPC message over the local socket and print the answer as JSON.\nExit 0 on a result, 1 on an error object, 2 when no gate answers.')
  .argument('<method>', 'the verb, e.g. gv.ping')
  .argument('[params]', 'the params as a JSON object')
  .option('--home <dir>', 'the gate home whose socket to use')
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
  .description('Print the effective configuration and where each value comes from.')
  .option('--home <dir>', 'the gate home')
  .option('--json', 'print as JSON')
  .action(configCommand);

await program.parseAsync(process.argv);
