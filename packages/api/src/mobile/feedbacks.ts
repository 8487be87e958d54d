/** Feedbacks that testers sent from the apps. */
import type { CallOptions } from '../core/call.ts';
import type { HttpTransport } from '../core/transport.ts';
import { callMobile } from './request.ts';
import type { MobileFeedbackList } from './types.ts';

export class MobileFeedbacks {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/feedbacks/: the latest 100 feedbacks. */
  list(options?: CallOptions): Promise<MobileFeedbackList> {
    return callMobile(
      this.#http,
      { operation: 'listFeedbacks', method: 'GET', path: '/api/1/feedbacks/' },
      options,
    );
  }
}
