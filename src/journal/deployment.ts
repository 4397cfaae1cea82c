import type { DeploymentKey } from './deployment-key.js';
import type { ConfigOrigin } from '../config/config-origin.js';
import type { HomePaths } from '../config/home.js';

/** The deployment part: who this gate is, where its home is, where it listens and how it was configured. */
export interface Deployment {
  readonly key: DeploymentKey;
  /** The deployment's public key, base64url: its id (spec 1). */
  readonly deploymentId: string;
  readonly paths: HomePaths;
  /** Where each configuration value came from, and what gv.settings_save saved that waits for a restart. */
  readonly configOrigin: ConfigOrigin;
  /** Where the surfaces listen, once they do (reported by gv.ping). */
  readonly endpoints: { http?: string; socket?: string };
  /** What close() is waiting for, for a shutdown past its deadline to name; null before it starts. */
  readonly closing: string | null;
}
