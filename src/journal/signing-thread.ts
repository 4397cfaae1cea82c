import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { newThread } from '../threads.js';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import type { Log } from '../log.js';
import type { SignAnswer, SignerSettings, SignRequest } from '../../workers/signer/thread-entry.js';
import { stopThread } from '../stop-thread.js';

/**
 * Longest the thread may leave bodies unanswered, while asked for more, before it is taken
 * for stuck and replaced. It signs a claim's two events in ~0.08 ms; under the heaviest load
 * seen on this machine a thread waits tens of ms for a core, so a second is only a stuck thread.
 */
const ANSWER_WITHIN_MS = 1_000;
/** Failures in a row (deaths or silences, no answer between them) before the gate stops starting threads. */
const FAILURES_MAX = 3;
/** Longest the thread may take to stop before it is terminated. */
const STOP_MAX_MS = 2_000;
/**
 * Journal calls whose bodies go to the thread in one post. Each post wakes the thread, and
 * the main thread pays for the wake-up (postMessage was ~4% of its profile under ingest, one
 * post a claim); two a post measured 5 of 5 alternated 20,000-claim pairs with less main-thread
 * CPU a claim (0.372-0.390 ms against 0.384-0.400). A call left unposted when its commit comes
 * is signed on the main thread, as an unanswered one is.
 */
const CALLS_PER_POST = 2;

interface Thread {
  worker: Worker;
  answers: MessagePort;
  ready: boolean;
}

/**
 * The Ed25519 signatures of journal events made on a thread of their own, beside the main
 * thread's other work (issue 16: signing was ~10% of the main thread's time under ingest).
 * The main thread seals each event (seq, prev, canonical JSON, event id) itself and hands
 * the bodies here (`ask`); before COMMIT the journal takes the answers that came
 * (`answer`, reading the thread's port with receiveMessageOnPort) and signs the rest itself
 * (`signHere`), so the commit stays one synchronous step, never waits for the thread, and no
 * unsigned row is ever written or seen.
 *
 * A thread that exits, or stays silent for ANSWER_WITHIN_MS while asked, is replaced
 * (logged); after FAILURES_MAX failures in a row the gate signs on the main thread only
 * (logged as an error). Either way what it had not answered is signed here, with the same
 * key and function, so a commit never fails or differs for it.
 */
export class SigningThread {
  /** Of the signatures the journal took: made by the thread, or here because its answer had not come; and the posts to the thread (tests read them). */
  readonly counts = { offThread: 0, onMain: 0, posts: 0 };
  private current: Thread | null = null;
  private nextTicket = 1;
  /** Tickets asked of the current thread and neither answered, taken nor abandoned. */
  private readonly outstanding = new Set<number>();
  /** Requests waiting to be posted with the next (CALLS_PER_POST); their tickets are outstanding. */
  private unposted: SignRequest[] = [];
  private readonly answered = new Map<number, string[]>();
  /** Requests posted to the current thread that it has not answered yet, abandoned ones included. */
  private inFlight = 0;
  /** Since when the thread, asked, has answered nothing (null while it owes nothing). */
  private silentSince: number | null = null;
  private failures = 0;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly key: DeploymentKey,
    private readonly log: Log,
    private readonly answerWithinMs = ANSWER_WITHIN_MS,
  ) {
    this.start();
  }

  /** The running thread, for tests that stop it to see the main thread take over. */
  get thread(): Worker | null {
    return this.current?.worker ?? null;
  }

  /** Whether bodies asked now go to the thread (it has started and the gate has not given up on it). */
  get ready(): boolean {
    return this.current?.ready === true && this.closing === null;
  }

  /** Tickets asked and neither taken nor abandoned: none once a commit is over. */
  get owed(): number {
    return this.outstanding.size + this.answered.size;
  }

  private start(): void {
    const { port1: answers, port2 } = new MessageChannel();
    const settings: SignerSettings = { key: this.key.privateKeyObject(), answers: port2 };
    const worker = newThread(new URL('../../workers/signer/thread-entry.js', import.meta.url), {
      workerData: settings,
      transferList: [port2],
    });
    const thread: Thread = { worker, answers, ready: false };
    worker.on('message', (m: unknown) => {
      if (m === 'ready') thread.ready = true;
    });
    worker.on('error', (error) => this.log.error('the journal signing thread failed', error));
    worker.on('exit', (code) => {
      if (this.current === thread && this.closing === null) this.lost(`stopped (exit code ${code})`);
    });
    // Housekeeping of the write path: it must not keep a gate that is otherwise done alive.
    worker.unref();
    answers.unref();
    this.current = thread;
    this.inFlight = 0;
    this.silentSince = null;
  }

  /** The thread is gone or silent: what it owed is signed here when taken, and a new one takes over. */
  private lost(reason: string): void {
    const thread = this.current;
    this.current = null;
    this.outstanding.clear();
    this.answered.clear();
    this.unposted = [];
    if (thread !== null) {
      thread.answers.close();
      void thread.worker.terminate();
    }
    this.failures += 1;
    if (this.failures >= FAILURES_MAX) {
      this.log.error(`the journal signing thread ${reason}, failure ${this.failures} in a row: the main thread signs every event from now on`);
      return;
    }
    this.log.warn(`the journal signing thread ${reason}: the main thread signs what it owed, and a new thread is started`);
    this.start();
  }

  /**
   * Hands sealed bodies to the thread; the ticket takes their signatures. Null when no
   * thread is ready (starting, given up, closing): the caller signs them itself. The bodies
   * are posted with the next call's (CALLS_PER_POST); until then answer() has nothing for them.
   */
  ask(bodies: string[]): number | null {
    const thread = this.current;
    if (thread === null || !thread.ready || this.closing !== null) return null;
    const ticket = this.nextTicket++;
    this.unposted.push({ ticket, bodies });
    this.outstanding.add(ticket);
    if (this.unposted.length >= CALLS_PER_POST) this.post(thread);
    return ticket;
  }

  private post(thread: Thread): void {
    const requests = this.unposted;
    this.unposted = [];
    thread.worker.postMessage(requests);
    this.counts.posts += 1;
    this.inFlight += requests.length;
    this.silentSince ??= performance.now();
  }

  /** The thread's signatures for `ticket` if they have come, taken; undefined while they have not. */
  answer(ticket: number | null): string[] | undefined {
    if (ticket === null) return undefined;
    const thread = this.current;
    if (thread !== null) this.drain(thread);
    const sigs = this.answered.get(ticket);
    if (sigs === undefined) return undefined;
    this.answered.delete(ticket);
    this.counts.offThread += sigs.length;
    return sigs;
  }

  /** Signs `bodies` on the main thread; the thread's answer to `ticket`, if it still comes, is dropped. */
  signHere(ticket: number | null, bodies: readonly string[]): string[] {
    if (ticket !== null) this.abandon(ticket);
    this.counts.onMain += bodies.length;
    return bodies.map((body) => this.key.sign(body));
  }

  /** A rolled-back write's ticket: its answer, when it comes, is dropped (and an unposted one is never posted). */
  abandon(ticket: number): void {
    this.outstanding.delete(ticket);
    this.answered.delete(ticket);
    if (this.unposted.length > 0) this.unposted = this.unposted.filter((r) => r.ticket !== ticket);
  }

  private drain(thread: Thread): void {
    let heard = false;
    for (let m = receiveMessageOnPort(thread.answers); m !== undefined; m = receiveMessageOnPort(thread.answers)) {
      const answer = m.message as SignAnswer;
      heard = true;
      this.inFlight -= 1;
      if (this.outstanding.delete(answer.ticket)) this.answered.set(answer.ticket, answer.sigs);
    }
    const now = performance.now();
    if (heard) {
      this.failures = 0;
      this.silentSince = this.inFlight > 0 ? now : null;
    } else if (this.silentSince !== null && now - this.silentSince > this.answerWithinMs) {
      this.lost(`answered nothing for ${this.answerWithinMs} ms while asked`);
    }
  }

  /** Stops the thread (after the journal writer's last commit); events after it are signed on the main thread. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      const thread = this.current;
      this.current = null;
      this.outstanding.clear();
      this.answered.clear();
      this.unposted = [];
      if (thread === null) return resolve();
      void stopThread(thread.worker, STOP_MAX_MS).then(() => {
        thread.answers.close();
        resolve();
      });
    });
    return this.closing;
  }
}
