import { GateClientError } from '@gate/client';
import { EXIT } from './exit-codes.js';

/** Ends a command with a status; the message goes to stderr. */
export class Ending extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** `gate call`'s statuses for what the client library reports. */
export function clientErrorExit(error: unknown): number {
  if (error instanceof Ending) return error.code;
  if (!(error instanceof GateClientError)) return EXIT.errorObject;
  if (error.kind === 'transport') return EXIT.noGate;
  if (error.kind === 'timeout') return EXIT.noAnswerInTime;
  return EXIT.errorObject;
}
