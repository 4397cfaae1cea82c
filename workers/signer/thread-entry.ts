/**
 * Worker thread that signs journal bodies the main thread has sealed (seq, prev, canonical
 * JSON, event id), so the two Ed25519 signatures of every ingest run beside the main
 * thread's other work (src/journal/signing-thread.ts). It signs exactly what it is given
 * with the deployment key it was handed once; it never sees the database.
 * Answers go on a port of their own, which the main thread reads with receiveMessageOnPort
 * inside its commit (never through its event loop).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { KeyObject } from 'node:crypto';
import { signWith } from '../../src/forms/ed25519.js';

export interface SignerSettings {
  key: KeyObject;
  answers: MessagePort;
}

export interface SignRequest {
  ticket: number;
  bodies: string[];
}

export interface SignAnswer {
  ticket: number;
  sigs: string[];
}

const { key, answers } = workerData as SignerSettings;
parentPort!.on('message', (requests: SignRequest[] | 'stop') => {
  if (requests === 'stop') {
    parentPort!.close();
    answers.close();
    return;
  }
  // Each request is answered as soon as it is signed: the main thread takes what has come by COMMIT.
  for (const request of requests) {
    const answer: SignAnswer = { ticket: request.ticket, sigs: request.bodies.map((body) => signWith(key, body)) };
    answers.postMessage(answer);
  }
});
parentPort!.postMessage('ready');
