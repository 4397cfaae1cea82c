import { InvalidArgumentError } from 'commander';

/** An option's value that must be a whole count from 1 to `max` (gate runner --members, say). */
export const count = (max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`an integer from 1 to ${max}`);
  return n;
};
