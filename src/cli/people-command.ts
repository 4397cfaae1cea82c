import { resolveHome } from '../config/home.js';
import { promptPassword, readStdinPassword } from './password-prompt.js';
import { NoGateError, socketCall } from './socket-call.js';

interface Options {
  home?: string;
}

/** One verb over the socket; an error object ends the command with exit 1, no gate with exit 2. */
async function call(command: string, method: string, params: Record<string, unknown>, options: Options): Promise<Record<string, any>> {
  try {
    const answer = await socketCall(resolveHome(options.home).socket, method, params);
    if ('error' in answer) {
      process.stderr.write(`gate people ${command}: ${(answer['error'] as { message: string }).message}\n`);
      process.exit(1);
    }
    return answer['result'] as Record<string, any>;
  } catch (error) {
    process.stderr.write(`gate people ${command}: ${error instanceof NoGateError ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

export async function peopleAddCommand(
  email: string,
  options: Options & { role?: string; demo?: boolean; name?: string; passwordStdin?: boolean },
): Promise<void> {
  let password: string;
  try {
    if (options.passwordStdin) {
      password = await readStdinPassword();
    } else {
      password = await promptPassword(`Password for ${email}: `);
      const again = await promptPassword('The same password again: ');
      if (again !== password) throw new Error('the two passwords differ; nothing was added');
    }
  } catch (error) {
    process.stderr.write(`gate people add: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const result = await call(
    'add',
    'gv.person_add',
    {
      email,
      password,
      ...(options.role === undefined ? {} : { role: options.role }),
      ...(options.demo ? { demo: true } : {}),
      ...(options.name === undefined ? {} : { name: options.name }),
    },
    options,
  );
  process.stdout.write(`added ${result['email']} as ${result['role']}${result['demo'] ? ' (demo)' : ''}: ${result['identity']}; event ${result['event_id']}\n`);
}

export async function peopleListCommand(options: Options & { json?: boolean }): Promise<void> {
  const result = await call('list', 'gv.people', { action: 'list' }, options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const people = result['people'] as Array<Record<string, unknown>>;
  if (people.length === 0) process.stdout.write('no people\n');
  for (const p of people) {
    const tags = [p['source'] === 'config' ? 'from [auth].admins' : null, p['demo'] ? 'demo' : null, p['signs_in_here'] ? 'signs in here' : null].filter(Boolean);
    process.stdout.write(`${p['role']}\t${p['email'] ?? '-'}\t${p['identity']}${tags.length ? `\t(${tags.join(', ')})` : ''}\n`);
  }
}

export async function peopleRemoveCommand(sub: string, options: Options & { iss?: string }): Promise<void> {
  const result = await call('remove', 'gv.people', { action: 'remove', sub, ...(options.iss === undefined ? {} : { iss: options.iss }) }, options);
  process.stdout.write(result['removed'] ? `removed ${result['iss']}|${result['sub']}${result['was'] ? ` (was ${result['was']})` : ''}\n` : 'nobody to remove\n');
}
