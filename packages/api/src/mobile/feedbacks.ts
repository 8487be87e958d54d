/** Feedbacks that testers sent from the apps. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { MobileResource } from './request.ts';
import type { MobileFeedbackList } from './types.ts';

const FEEDBACKS = operations({ listFeedbacks: 'GET /api/1/feedbacks/' });

export class MobileFeedbacks extends MobileResource {
  /** GET /api/1/feedbacks/: the latest 100 feedbacks. */
  list(options?: CallOptions): Promise<MobileFeedbackList> {
    return this.call(FEEDBACKS.listFeedbacks, {}, options);
  }
}
