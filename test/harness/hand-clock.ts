/** A clock the test moves by hand: times-to-live and waits without sleeping (a gate's injected clock). */
export class HandClock {
  constructor(public t = Date.now()) {}
  now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}
