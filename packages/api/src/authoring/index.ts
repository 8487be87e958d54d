import type { HttpTransport } from '../core/transport/transport.ts';
import { AuthoringStorage } from './storage.ts';
import { AuthoringTestCases } from './test-cases.ts';
import { AuthoringTestSchedules } from './test-schedules.ts';
import { AuthoringTestSuites } from './test-suites.ts';

export { AuthoringStorage } from './storage.ts';
export { AuthoringTestCases } from './test-cases.ts';
export { AuthoringTestSchedules } from './test-schedules.ts';
export { AuthoringTestSuites } from './test-suites.ts';
export type * from './types.ts';

export interface AuthoringClientOptions {
  http: HttpTransport;
  /** Path prefix of the interface (default `/v1/ai-authoring`). */
  prefix?: string;
}

/** AI test authoring: test cases, suites, schedules, storage. */
export class AuthoringClient {
  readonly http: HttpTransport;
  readonly prefix: string;
  readonly testCases: AuthoringTestCases;
  readonly testSuites: AuthoringTestSuites;
  readonly testSchedules: AuthoringTestSchedules;
  readonly storage: AuthoringStorage;

  constructor(options: AuthoringClientOptions) {
    this.http = options.http;
    // A trailing slash would double the separator in every path.
    this.prefix = (options.prefix ?? '/v1/ai-authoring').replace(/\/+$/, '');
    this.testCases = new AuthoringTestCases(this);
    this.testSuites = new AuthoringTestSuites(this);
    this.testSchedules = new AuthoringTestSchedules(this);
    this.storage = new AuthoringStorage(this);
  }
}
