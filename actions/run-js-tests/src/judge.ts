/**
 * Each platform as the status shows it: queued, running, or judged by its framework's rules once
 * its result is final; then marked with what stopping it came to.
 */
import type { ReportedJob } from '@sauce-actions/action-kit/test-run/job-report';
import {
  jsResultSeconds,
  jsTestCounts,
  jsTestFinished,
  jsTestJobId,
  jsTestPassed,
  type JsTestFramework,
  type JsTestPlatform,
  type JsTestStatus,
  type JsTestStatusAnswer,
} from '@sauce-actions/api';
import { platformName } from './platforms.ts';
import { countsText, type TestCounts } from './results.ts';
import type { StopJsTestsResult } from './stop.ts';

export type PlatformStatus = 'passed' | 'failed' | 'error' | 'queued' | 'running' | 'stopped';

export interface PlatformResult {
  /** Id of the JS test of this platform. */
  id: string;
  platform: JsTestPlatform;
  name: string;
  jobId?: string;
  url?: string;
  status: PlatformStatus;
  counts?: TestCounts;
  durationSeconds?: number;
  /** As the service answered: the page's report, a text why the job ended without one, or null. */
  result: JsTestStatus['result'];
  detail?: string;
  /** Earlier runs of this platform, oldest first, when it failed and was run again. */
  attempts?: Omit<PlatformResult, 'attempts'>[];
}

interface StatusContext {
  /** The platforms started, in order: one test id each. */
  platforms: readonly JsTestPlatform[];
  ids: readonly string[];
  framework: JsTestFramework;
  jobUrl(jobId: string): string;
}

/** Every platform as the latest answer shows it, in the order the platforms were started. */
export function platformResults(
  context: StatusContext,
  answer: JsTestStatusAnswer | undefined,
): PlatformResult[] {
  const byId = new Map<string, JsTestStatus>();
  for (const entry of answer?.['js tests'] ?? []) byId.set(entry.id, entry);
  return context.ids.map((id, index) => {
    const entry = byId.get(id);
    const platform = (context.platforms[index] ?? entry?.platform ?? ['', '', '']) as JsTestPlatform;
    const jobId = entry && jsTestJobId(entry);
    const result = entry?.result ?? null;
    const base = {
      id,
      platform,
      name: platformName(platform),
      ...(jobId !== undefined ? { jobId, url: context.jobUrl(jobId) } : {}),
      result,
    };
    const final = entry !== undefined && answer !== undefined && jsTestFinished(entry, answer.completed);
    // A result may show before the whole run completes; it is final for that platform.
    if (final || result !== null) return judged(context.framework, base, result);
    return { ...base, status: jobId !== undefined ? 'running' : 'queued' };
  });
}

function judged(
  framework: JsTestFramework,
  base: Omit<PlatformResult, 'status'>,
  result: JsTestStatus['result'],
): PlatformResult {
  if (result === null) {
    return {
      ...base,
      status: 'error',
      detail: 'the job ended without test results (it errored, timed out or was stopped)',
    };
  }
  // A text instead of the page's report: the service's reason the job ended, such as its maximum duration.
  if (typeof result === 'string') return { ...base, status: 'error', detail: result };
  const counts = jsTestCounts(framework, result);
  const durationSeconds = jsResultSeconds(framework, result);
  const passed = jsTestPassed(framework, result);
  const detail =
    countsText(counts) ?? (passed ? undefined : `the ${framework} result does not report a pass`);
  return {
    ...base,
    status: passed ? 'passed' : 'failed',
    ...(counts !== undefined ? { counts } : {}),
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
}

/** The platforms as the stopping left them: stopped, or why not. */
export function markStopped(platforms: PlatformResult[], stopping: StopJsTestsResult): void {
  const stopped = new Set(stopping.stopped);
  const failed = new Map(stopping.failed.map((f) => [f.jobId, f.error]));
  const graceMs = stopping.graceMs;
  for (const p of platforms) {
    // A job stopped here ends without results, which the answer after the stop shows as an error.
    if (p.jobId !== undefined && stopped.has(p.jobId) && p.result === null) {
      p.status = 'stopped';
      p.detail = 'stopped before it finished';
    } else if (p.jobId !== undefined && failed.has(p.jobId)) {
      p.detail = `still running: it could not be stopped (${failed.get(p.jobId)})`;
    } else if (p.jobId === undefined && (p.status === 'running' || p.status === 'queued')) {
      p.detail = `no job was assigned within ${graceMs / 1000}s, so it could not be stopped; it may still run`;
    }
  }
}

/** A platform's run as the report shows a job; one whose job was never assigned goes by its test id. */
export function reportedJob(p: Omit<PlatformResult, 'attempts'>): ReportedJob {
  return {
    id: p.jobId ?? p.id,
    name: p.name,
    platform: `${p.platform[1]} ${p.platform[2]}, ${p.platform[0]}`,
    status: p.status,
    url: p.url ?? '',
    ...(p.durationSeconds !== undefined ? { durationSeconds: p.durationSeconds } : {}),
    ...(p.detail !== undefined ? { detail: p.detail } : {}),
  };
}
