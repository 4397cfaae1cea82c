import { describe, expect, it } from 'vitest';
import { HomeElsewhere, placement } from '../../src/store/home-place.js';

/** Where a start finds a home against where it was placed (src/store/home-place.ts), without a gate. */
const placed = { instance: 'i-1', host: 'gate-a', machine: 'm'.repeat(32), path: '/var/lib/gate', seq: 3 };
const ask = { takeover: false, restored: null, fresh: false };
const restored = { backup_made_at: 1, head_seq: 40, head_event_id: 'f'.repeat(64), from_path: '/var/lib/gate', from_host: 'gate-a' };

describe('placement', () => {
  it('places a new home, and one made before homes knew, where they are', () => {
    const here = { host: 'gate-a', machine: 'm'.repeat(32), path: '/var/lib/gate' };
    expect(placement(null, here, { ...ask, fresh: true })?.data).toMatchObject({ reason: 'created', ...here });
    expect(placement(null, here, ask)?.data).toMatchObject({ reason: 'recorded' });
  });

  it('goes on where it was placed (a renamed host keeps its machine id), journaling a restore there', () => {
    const here = { host: 'renamed', machine: 'm'.repeat(32), path: '/var/lib/gate' };
    expect(placement(placed, here, ask)).toBeNull();
    expect(placement(placed, here, { ...ask, restored })?.data).toMatchObject({ reason: 'restored', restored_from: restored, previous: { instance: 'i-1' } });
  });

  it('refuses another path, another machine, or another host where neither has a machine id, unless taken over', () => {
    const elsewhere = [
      { host: 'gate-a', machine: 'm'.repeat(32), path: '/srv/gate' },
      { host: 'gate-a', machine: 'n'.repeat(32), path: '/var/lib/gate' },
    ];
    for (const here of elsewhere) {
      expect(() => placement(placed, here, ask)).toThrow(HomeElsewhere);
      expect(placement(placed, here, { ...ask, takeover: true })?.data).toMatchObject({ reason: 'takeover', previous: { path: '/var/lib/gate' } });
    }
    const container = { ...placed, machine: null };
    expect(() => placement(container, { host: 'f00dcafe', machine: null, path: '/var/lib/gate' }, ask)).toThrow(/start with --takeover/);
    expect(placement(container, { host: 'gate-a', machine: null, path: '/var/lib/gate' }, ask)).toBeNull();
  });
});
