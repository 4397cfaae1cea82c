import type { GateProcess } from './gate-process.js';

/**
 * Spaces of the given review policies, made over the socket (the operator's door), with read
 * and contribute granted to `writer` in each: `{ people: 'human', models: 'model' }`.
 */
export async function reviewSpaces(gate: Pick<GateProcess, 'socket'>, writer: { identity: string }, spaces: Record<string, 'human' | 'model' | 'auto'>): Promise<void> {
  for (const [name, policy] of Object.entries(spaces)) await gate.socket('gv.space_create', { name, policy });
  await gate.socket('gv.grant', {
    action: 'issue',
    grants: Object.keys(spaces).map((space) => ({ principal: writer.identity, space, capabilities: ['read', 'contribute'] })),
  });
}
