/** Identifier formats of the authoring interface. */
import { randomBytes, randomUUID } from 'node:crypto';

/** Test cases (and their revisions, runs and run jobs) use 24-character hex identifiers. */
export function newHexId(): string {
  return randomBytes(12).toString('hex');
}

/** Suites, schedules, users, teams, artifacts and suite runs use UUIDs. */
export function newUuid(): string {
  return randomUUID();
}

export const HEX_ID_PATTERN = '^[0-9a-fA-F]{24}$';
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
