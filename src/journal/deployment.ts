import type { DeploymentKey } from '../credentials/deployment-key.js';
import type { ConfigOrigin } from '../config/config-origin.js';
import type { HomePaths } from '../config/home.js';
import type { SigningKeys } from '../forms/signing-keys.js';

/** The deployment part: who this gate is, where its home is, where it listens and how it was configured. */
export interface Deployment {
  /** The key that signs from now on: the genesis key, or the last rotation's (`gate key rotate`). */
  readonly key: DeploymentKey;
  /** The genesis key's public half, base64url: the deployment's id (docs/protocol.md#invariants), kept through rotations. */
  readonly deploymentId: string;
  /** Every key the deployment signed with and the first seq of each, proven from the journal's rotations. */
  readonly signingKeys: SigningKeys;
  readonly paths: HomePaths;
  /** Where each configuration value came from, and what gv.settings_save saved that waits for a restart. */
  readonly configOrigin: ConfigOrigin;
  /** Where the surfaces listen, once they do (reported by gv.ping; the root's to set: Gate.listening). */
  readonly endpoints: Readonly<{ http?: string; socket?: string }>;
  /** What close() is waiting for, for a shutdown past its deadline to name; null before it starts. */
  readonly closing: string | null;
}
