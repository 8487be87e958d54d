/**
 * The public surface: the client and its options, its errors, the types of what the three
 * interfaces take and answer, the regions, and the poller. Transport, retry, pagination and
 * credential internals stay inside the package.
 */
export { SauceClient, type SauceClientOptions } from './client.ts';
export * from './authoring/index.ts';
export * from './mobile/index.ts';
export * from './automation/index.ts';
export type { CallOptions } from './core/values/call.ts';
export {
  ApiError,
  TransportError,
  type ApiErrorDetails,
  type ProxyFailure,
  type UnusableAnswer,
} from './core/values/errors.ts';
export { ResponseShapeError } from './core/resources/shape.ts';
export { parseServiceTime, SERVICE_TIME_FORMS } from './core/values/service-time.ts';
export { anySignal, markDeadline, monotonicNow } from './core/timing/deadline.ts';
export { SKEW_WARNING_MS, serviceDateOf, type ServiceClock } from './core/timing/service-clock.ts';
export { downloadFile, type DownloadFileOptions } from './core/files/download.ts';
export {
  addressOrigin,
  postJson,
  type PostJsonAnswer,
  type PostJsonOptions,
} from './core/transport/post-json.ts';
export { DownloadLimitError, pathInFolder, safeBaseName, type DownloadResult } from './core/files/files.ts';
export type { UploadProgress } from './core/files/multipart.ts';
export type { PageOptions } from './core/resources/pagination.ts';
export { recordingContention, type ContentionRecord } from './core/timing/pacing.ts';
export {
  ContentionBackoff,
  poll,
  PollTimeoutError,
  type PollCheckInfo,
  type PollOptions,
} from './core/timing/poller.ts';
export {
  AUTOMATION_REGIONS,
  automationBaseUrl,
  isAutomationRegion,
  isMobileRegion,
  jobDashboardUrl,
  MOBILE_REGIONS,
  mobileBaseUrls,
  type AutomationRegion,
  type MobileRegion,
} from './core/addresses/regions.ts';
export { sleep, type RetryPolicy } from './core/timing/retry.ts';
export type { Logger, Timeouts } from './core/transport/transport.ts';
