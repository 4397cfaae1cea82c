import { resolveHome } from '../config/home.js';
import { promptPassword, readStdinPassword } from './password-prompt.js';
import { socketCall } from './socket-call.js';
import { socketFailureExit } from './call-command.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';
import { peopleByEmail } from './people-by-email.js';

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
    process.stderr.write(`gate people ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(socketFailureExit(error));
  }
}

/** A new password: from stdin for scripts, else asked twice without echo at the terminal. */
async function newPassword(command: string, email: string, options: { passwordStdin?: boolean }, nothingDone: string): Promise<string> {
  try {
    if (options.passwordStdin) return await readStdinPassword();
    const password = await promptPassword(`Password for ${email}: `);
    const again = await promptPassword('The same password again: ');
    if (again !== password) throw new Error(`the two passwords differ; ${nothingDone}`);
    return password;
  } catch (error) {
    process.stderr.write(`gate people ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

export async function peopleAddCommand(
  email: string,
  options: Options & { role?: string; demo?: boolean; name?: string; passwordStdin?: boolean },
): Promise<void> {
  const password = await newPassword('add', email, options, 'nothing was added');
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

/**
 * Resets the password of a person who signs in here, keeping who they are: a new password
 * (asked twice, or from stdin), or with --link a one-time link to give them, with which they
 * set their own. Their open sign-in sessions end with a new password (a link ends them when used).
 */
export async function peopleResetCommand(email: string, options: Options & { link?: boolean; passwordStdin?: boolean }): Promise<void> {
  if (options.link && options.passwordStdin) return exitAfterWriting(process.stderr, 'gate people reset: --link makes a link for the person to set their own password; give it without --password-stdin\n', EXIT.badArgument);
  const params = options.link ? { email, link: true } : { email, password: await newPassword('reset', email, options, 'nothing was changed') };
  const result = await call('reset', 'gv.person_reset', params, options);
  if (result['reset'] === 'link') {
    process.stdout.write(
      `a one-time link for ${result['email']} (${result['identity']}), usable until ${new Date(result['expires_at'] as number).toISOString()}; give it to them by a way only they read:\n${result['link']}\nevent ${result['event_id']}\n`,
    );
    return;
  }
  process.stdout.write(`password of ${result['email']} reset (${result['identity']}: the same identity, grants and signatures; their sign-in sessions ended); event ${result['event_id']}\n`);
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
    const who = [p['name'], p['email']].filter((x) => typeof x === 'string').join(' ') || '-';
    process.stdout.write(`${p['role']}\t${who}\t${p['identity']}${tags.length ? `\t(${tags.join(', ')})` : ''}\n`);
  }
}

/**
 * Removes a person named by email (as people know each other) or by subject. An email is
 * matched, case-insensitively, against the people list; two people of different issuers
 * with one email are not guessed between: --iss says which.
 */
export async function peopleRemoveCommand(who: string, options: Options & { iss?: string }): Promise<void> {
  let sub = who;
  let iss = options.iss;
  if (who.includes('@')) {
    const listed = (await call('remove', 'gv.people', { action: 'list' }, options))['people'] as Array<Record<string, unknown>>;
    const matches = peopleByEmail(listed, who, iss);
    if (matches.length === 0) return exitAfterWriting(process.stderr, `gate people remove: nobody with email ${who}${iss ? ` at ${iss}` : ''}\n`, EXIT.errorObject);
    if (matches.length > 1) {
      const issuers = matches.map((p) => p['iss']).join(', ');
      return exitAfterWriting(process.stderr, `gate people remove: ${who} signs in at several issuers (${issuers}); name one with --iss\n`, EXIT.badArgument);
    }
    sub = matches[0]!['sub'] as string;
    iss = matches[0]!['iss'] as string;
  }
  const result = await call('remove', 'gv.people', { action: 'remove', sub, ...(iss === undefined ? {} : { iss }) }, options);
  const whom = `${result['iss']}|${result['sub']}`;
  process.stdout.write(result['removed'] ? `removed ${who.includes('@') ? `${who} (${whom})` : whom}${result['was'] ? `, was ${result['was']}` : ''}\n` : 'nobody to remove\n');
}
