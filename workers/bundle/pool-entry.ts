/**
 * Piscina worker entry for the bundle pool: one archive in (transferred), its inspection
 * out. The members' bytes come back in the one buffer they were inflated into, moved,
 * with each member's place in it, so nothing is copied on the way back.
 */
import type { ArchiveLimits } from './archive-limits.js';
import { inspectArchive, type Inspection } from './inspect-archive.js';
import { transferred } from '../transferred-result.js';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

export interface BundleTask {
  archive: ArrayBuffer;
  limits: ArchiveLimits;
  skill: boolean;
}

export interface PackedMember {
  path: string;
  content_hash: string;
  size_bytes: number;
  classification: string | null;
  offset: number;
}

export type PackedInspection =
  | (Omit<Extract<Inspection, { valid: true }>, 'members'> & { members: PackedMember[]; data: ArrayBuffer })
  | Extract<Inspection, { valid: false }>;

export default async function inspectBundle(task: BundleTask): Promise<PackedInspection> {
  const inspection = await inspectArchive(new Uint8Array(task.archive), task.limits, { skill: task.skill });
  if (!inspection.valid) return inspection;
  // Every member is a view into the one buffer the inspector inflated them into.
  const data = inspection.members[0]?.bytes.buffer ?? new ArrayBuffer(0);
  const members = inspection.members.map(({ bytes, ...m }) => ({ ...m, offset: bytes.byteOffset }));
  return transferred({ ...inspection, members, data: data as ArrayBuffer }, [data as ArrayBuffer]);
}
