import { ProofError } from '@gate/client';

/** The refusal a proof check ends in, by its code; a check that passes fails the test. */
export async function refusal(check: Promise<unknown>): Promise<string> {
  try {
    await check;
  } catch (error) {
    if (error instanceof ProofError) return error.code;
    throw error;
  }
  throw new Error('the check passed');
}

/** A deep copy of an answer, to tamper with one field of it. */
export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
