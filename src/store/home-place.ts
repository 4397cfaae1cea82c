import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import type { HomePlace } from './home-record.js';
import type { EventData } from '../journal/catalogue/catalogue.js';

/** What `gate restore` leaves in the home it prepared, for the first start to journal (docs/operations.md). */
export const restoredFromShape = z.strictObject({
  backup_made_at: z.number().int(),
  head_seq: z.number().int().nonnegative(),
  head_event_id: z.string().nullable(),
  /** The home the backup was taken from, as its record said. */
  from_path: z.string(),
  from_host: z.string(),
});
export type RestoredFrom = z.infer<typeof restoredFromShape>;

export function readRestoredFrom(path: string): RestoredFrom | null {
  if (!existsSync(path)) return null;
  return restoredFromShape.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * This machine's id as the home record keeps it: /etc/machine-id under an HMAC of our own,
 * as systemd asks of applications (the raw id is to stay on the machine), or null where the
 * host has none. A host name changes more easily than a machine id; it decides only without one.
 */
function machineId(): string | null {
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(path, 'utf8').trim();
      if (/^[0-9a-f]{32}$/.test(id)) return createHmac('sha256', id).update('gate.home/1').digest('hex').slice(0, 32);
    } catch {
      // none here; try the next
    }
  }
  return null;
}

export function herePlace(home: string): Omit<HomePlace, 'instance' | 'seq'> {
  return { host: hostname(), machine: machineId(), path: realpathSync(home) };
}

/** Whether a home placed at `recorded` is where `here` is: the same machine (its id where both have one, else its host name) and path. */
export function samePlace(recorded: HomePlace, here: Omit<HomePlace, 'instance' | 'seq'>): boolean {
  const sameMachine = recorded.machine !== null && here.machine !== null ? recorded.machine === here.machine : recorded.host === here.host;
  return sameMachine && recorded.path === here.path;
}

const described = (p: Omit<HomePlace, 'instance' | 'seq'>) => `${p.path} on host ${p.host}${p.machine === null ? '' : ` (machine ${p.machine.slice(0, 8)})`}`;

/** Started somewhere other than where the home was placed, without --takeover. */
export class HomeElsewhere extends Error {
  constructor(recorded: HomePlace, here: Omit<HomePlace, 'instance' | 'seq'>) {
    super(
      `this home was placed at ${described(recorded)} (seq ${recorded.seq}) and is started at ${described(here)}: it is a copy. ` +
        'A copy running beside its original signs a second chain under the same deployment. If the original is gone for good ' +
        '(restored after losing it, moved to this machine), start with --takeover: the journal records that this home is the ' +
        'gate from now on (docs/operations.md, "Where a home lives")',
    );
  }
}

/** The home-placed event a start journals, or null when the home is where it was placed. */
export interface Placement {
  data: EventData<'home-placed'>;
  place: Omit<HomePlace, 'seq'>;
}

/**
 * Where this start finds the home against where it was placed. A home with no place yet
 * (new, or made before homes knew) is placed here; one started where it was placed goes on
 * (after a restore there, the restore is journaled); one started elsewhere is refused unless
 * the operator says it is now the gate (`takeover`).
 */
export function placement(
  recorded: HomePlace | null,
  here: Omit<HomePlace, 'instance' | 'seq'>,
  ask: { takeover: boolean; restored: RestoredFrom | null; fresh: boolean },
): Placement | null {
  const place = { instance: randomUUID(), ...here };
  const restored = ask.restored === null ? {} : { restored_from: ask.restored };
  if (recorded === null) return { place, data: { ...place, reason: ask.fresh ? 'created' : 'recorded', ...restored } };
  const previous = { instance: recorded.instance, host: recorded.host, machine: recorded.machine, path: recorded.path };
  if (samePlace(recorded, here)) {
    return ask.restored === null ? null : { place, data: { ...place, reason: 'restored', previous, ...restored } };
  }
  if (!ask.takeover) throw new HomeElsewhere(recorded, here);
  return { place, data: { ...place, reason: 'takeover', previous, ...restored } };
}
