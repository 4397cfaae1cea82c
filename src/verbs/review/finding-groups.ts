import type { House } from '../house.js';

/**
 * The `findings` figure of gate.pending (docs/protocol.md#the-tool-endpoint): finding groups, one per scan event and
 * finding kind, so one secret matched by three rules in one scan counts once. The finding
 * text never leaves the gate; only this count does.
 */
export function findingGroups(house: Pick<House, 'store'>, artifactId: string): number {
  const rows = house.store.journalReads.findingEventBodies(artifactId);
  let groups = 0;
  for (const { body } of rows) {
    const findings = (JSON.parse(body) as { data: { findings?: { kind?: unknown }[] } }).data.findings ?? [];
    groups += new Set(findings.map((f) => String(f.kind))).size;
  }
  return groups;
}
