import { randomBytes } from 'node:crypto';

/** 32 lower-case hex digits, the shape of real job, tunnel and user ids. */
export function hexId(): string {
  return randomBytes(16).toString('hex');
}
