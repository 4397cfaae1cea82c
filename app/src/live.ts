import { useEffect, useRef } from 'preact/hooks';
import { rpc } from './rpc.js';
import type { VerbAnswer, VerbParams } from '../../src/verbs/verb-types.js';

export const POLL_MS = 3000;

/**
 * Follows gv.events from the tip with its sealed cursor, a few seconds apart, and hands each
 * non-empty page to `onEvents`. The gate keeps no reader position and pushes nothing, so
 * this is the console's only way to learn of change; a hidden tab stops asking.
 */
/** One event of a gv.events page, typed by the verb's own declaration. */
export type TailEvent = VerbAnswer<'gv.events'>['events'][number];

export function useEventTail(onEvents: (events: TailEvent[]) => void, params: VerbParams<'gv.events'> = {}, paused = false): void {
  const handler = useRef(onEvents);
  handler.current = onEvents;
  const key = JSON.stringify(params);
  useEffect(() => {
    if (paused) return;
    let cursor: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let busy = false;
    const tick = async () => {
      if (stopped || busy) return;
      busy = true;
      clearTimeout(timer);
      if (document.visibilityState === 'visible') {
        try {
          if (cursor === null) {
            cursor = (await rpc('gv.events', { ...params, direction: 'backward', limit: 1 })).tip;
          } else {
            const page = await rpc('gv.events', { ...params, since: cursor, limit: 200 });
            cursor = page.next;
            if (page.events.length > 0 && !stopped) handler.current(page.events);
          }
        } catch {
          // A failed poll is tried again on the next tick; the screen keeps what it shows.
        }
      }
      busy = false;
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    const wake = () => document.visibilityState === 'visible' && void tick();
    document.addEventListener('visibilitychange', wake);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', wake);
    };
  }, [key, paused]);
}

/**
 * Runs `tick` now and again every `ms` while the screen using it is shown and the tab is
 * visible; a tab coming back asks at once. A tick still running is not started twice.
 */
export function useWhileShown(tick: () => Promise<void>, ms: number): void {
  const current = useRef(tick);
  current.current = tick;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let busy = false;
    const run = async () => {
      if (stopped || busy) return;
      busy = true;
      clearTimeout(timer);
      if (document.visibilityState === 'visible') await current.current();
      busy = false;
      if (!stopped) timer = setTimeout(run, ms);
    };
    void run();
    const wake = () => document.visibilityState === 'visible' && void run();
    document.addEventListener('visibilitychange', wake);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', wake);
    };
  }, [ms]);
}
