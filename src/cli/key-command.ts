import { existsSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import { loadConfig } from '../config/load-config.js';
import { Gate } from '../gate.js';
import { acquireHomeLock } from '../home-lock.js';
import { DeploymentKey, openSigningKey } from '../credentials/deployment-key.js';
import { createLog } from '../log.js';

const fail = (message: string, code = 1): never => {
  process.stderr.write(`gate key rotate: ${message}\n`);
  process.exit(code);
};

/**
 * `gate key rotate`: hands the deployment's signing to a new key, for the day the old one
 * leaks (docs/operations.md, "Rotating the gate's key"). The gate is stopped for it: its
 * signing thread, token minter and sealed cursors hold the key from start to stop. The new
 * key is written beside the old (deployment.key.next), the rotation is journaled signed by the
 * old key and naming the new, then the new key replaces the old; a stop in between is
 * finished (or dropped) by the next start. The deployment id stays the first key's.
 */
export async function keyRotateCommand(options: { home?: string }): Promise<void> {
  const paths = resolveHome(options.home);
  if (!existsSync(paths.db)) fail(`no home at ${paths.home}`, 2);
  let release: () => void = () => undefined;
  try {
    release = acquireHomeLock(paths.lock);
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}: stop the gate first (the key is rotated on a stopped gate)`);
  }
  try {
    const { config } = loadConfig(paths.config, process.env, {});
    const gate = Gate.open(paths, config, { log: createLog({ level: 'warn', format: config.log.format }) });
    let rotated: { seq: number; event_id: string; from: string; to: string; resealed: number };
    try {
      const from = gate.deployment.key.deploymentId;
      const next = DeploymentKey.openOrCreate(paths.nextKey);
      const event = await gate.store.writer.write(() => {
        // Identifiers only: answers hand this event out verbatim to whoever checks a later signature.
        const e = gate.store.journal.append('key-rotated', null, { deployment_id: gate.deployment.deploymentId, key: next.deploymentId, previous_key: from });
        return { e, resealed: gate.crews.runners.vault.resealFor(next.seed()) };
      });
      rotated = { seq: event.e.seq, event_id: event.e.event_id, from, to: next.deploymentId, resealed: event.resealed };
    } finally {
      await gate.close();
    }
    // Journaled and closed: the new key takes the old one's place (the start does this too if we stop here).
    openSigningKey(paths.key, paths.nextKey, rotated.to);
    process.stdout.write(
      `rotated: key-rotated at seq ${rotated.seq} (${rotated.event_id}), signed by ${rotated.from}, names ${rotated.to}; ` +
        `${paths.key} now holds the new key.\n` +
        `The deployment id stays ${gate.deployment.deploymentId}. Events from seq ${rotated.seq + 1} on are signed by the new key; gate verify follows the rotation.\n` +
        `${rotated.resealed > 0 ? `${rotated.resealed} runner tokens waiting for their runners were sealed again under the new key. ` : ''}` +
        'Access tokens signed by the old key are refused from the start: a console asks its person to sign in again, and a reload resumes the session from its refresh cookie. Event cursors given out before are refused. Start the gate.\n',
    );
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  } finally {
    release();
  }
}
