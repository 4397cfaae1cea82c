import { afterAll, beforeAll, expect, it } from 'vitest';
import { InProcessGate } from '../harness/in-process-gate.js';
import { HandClock } from '../harness/hand-clock.js';

// A clock that moves a millisecond at every read, as a loaded machine's does between the
// verb's read and the journal's stamp: the period gv.away declares starts at the event's time,
// after the verb's `now`, and the answer must still describe it.
class TickingClock extends HandClock {
  override now = () => this.t++;
}

let g: InProcessGate;
beforeAll(() => {
  g = InProcessGate.open({}, new TickingClock());
});
afterAll(async () => {
  await g?.close();
});

it('gv.away answers the period it declared when the journal stamps it after the verb read the clock', async () => {
  const away = await g.call(g.admin, 'gv.away', { note: 'monitor check' });
  expect(away).toMatchObject({ away: true, declared: true, note: 'monitor check', days: 0 });
  const status = await g.call(g.admin, 'gv.back', {});
  expect(status).toMatchObject({ away: false, declared: true });
});
