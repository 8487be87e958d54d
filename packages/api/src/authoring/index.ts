import type { HttpTransport } from '../core/transport.ts';

export interface AuthoringClientOptions {
  http: HttpTransport;
  /** Path prefix of the interface (default `/v1/ai-authoring`). */
  prefix?: string;
}

/** AI test authoring: test cases, suites, schedules, storage. */
export class AuthoringClient {
  readonly http: HttpTransport;
  readonly prefix: string;

  constructor(options: AuthoringClientOptions) {
    this.http = options.http;
    this.prefix = options.prefix ?? '/v1/ai-authoring';
  }
}
