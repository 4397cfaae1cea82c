import { resolveHome } from '../config/home.js';
import { NoGateError, socketCall } from './socket-call.js';
import { socketFailureExit } from './call-command.js';
import { EXIT, exitAfterWriting } from './exit-codes.js';

export async function spaceCreateCommand(name: string, options: { policy: string; owner?: string; home?: string }): Promise<void> {
  const params: Record<string, string> = { name, policy: options.policy };
  if (options.owner !== undefined) params['owner'] = options.owner;
  try {
    const answer = await socketCall(resolveHome(options.home).socket, 'gv.space_create', params);
    if ('error' in answer) {
      const error = answer['error'] as { message: string };
      process.stderr.write(`gate space create: ${error.message}\n`);
      process.exit(1);
    }
    const result = answer['result'] as { space: string; policy: string; owner: string; event_id: string };
    process.stdout.write(`created space ${result.space} (policy ${result.policy}, owner ${result.owner}); event ${result.event_id}\n`);
  } catch (error) {
    process.stderr.write(`gate space create: ${error instanceof NoGateError ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

interface SpaceRow {
  name: string;
  owner: string;
  policy: string;
  artifacts: number;
}

/** The spaces as a table: name, review policy, rows, owner; a sentence saying how to make one when there is none. */
export function spaceTable(spaces: SpaceRow[]): string {
  if (spaces.length === 0) return `No spaces yet: create one with gate space create NAME --policy human|model|auto\n`;
  const rows = [['SPACE', 'POLICY', 'ROWS', 'OWNER'], ...spaces.map((s) => [s.name, s.policy, String(s.artifacts), s.owner])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n') + '\n';
}

/** gv.spaces over the socket, as the operator: every space with its policy, row count and owner. */
export async function spaceListCommand(options: { home?: string; json?: boolean; timeout?: number }): Promise<void> {
  let answer: Record<string, unknown>;
  try {
    answer = await socketCall(resolveHome(options.home).socket, 'gv.spaces', {}, options.timeout);
  } catch (error) {
    return exitAfterWriting(process.stderr, `gate space list: ${error instanceof Error ? error.message : String(error)}\n`, socketFailureExit(error));
  }
  if ('error' in answer) {
    return exitAfterWriting(process.stderr, `gate space list: ${(answer['error'] as { message: string }).message}\n`, EXIT.errorObject);
  }
  const result = answer['result'] as { spaces: SpaceRow[] };
  exitAfterWriting(process.stdout, options.json ? `${JSON.stringify(result, null, 2)}\n` : spaceTable(result.spaces), EXIT.result);
}
