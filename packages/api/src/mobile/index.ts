import type { HttpTransport } from '../core/transport.ts';

export interface MobileClientOptions {
  /** Transport of the REST interface (`/api/1`, `/api/2`). */
  http: HttpTransport;
  /** Transport of the upload interface (`/api/upload/`). */
  upload: HttpTransport;
}

/** Mobile app distribution: projects, builds, testers, groups, feedbacks, audits, permissions, webhooks, sites, upload. */
export class MobileClient {
  readonly http: HttpTransport;
  readonly uploadHttp: HttpTransport;

  constructor(options: MobileClientOptions) {
    this.http = options.http;
    this.uploadHttp = options.upload;
  }
}
