import { resolveHome } from '../config/home.js';
import { NoGateError, socketCall } from './socket-call.js';

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
