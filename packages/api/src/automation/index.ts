import type { HttpTransport } from '../core/transport.ts';

export interface AutomationClientOptions {
  http: HttpTransport;
  /** The account every `:username` path names unless a call gives another. */
  username: string;
}

/** Automation REST: users, activity, usage, jobs, assets, tunnels, info, partners, storage, JS unit tests, bugs. */
export class AutomationClient {
  readonly http: HttpTransport;
  readonly username: string;

  constructor(options: AutomationClientOptions) {
    this.http = options.http;
    this.username = options.username;
  }
}
