/** The automation jobs that authoring runs start, read from the full job list, for tests. */
import { expect } from 'vitest';
import { basic, sleep } from '../support/emulator.ts';

export interface RunJob {
  id: string;
  name: string;
  build: string;
  status: string;
  passed: boolean | null;
  consolidated_status: string;
  browser: string;
  os: string;
}

export function runJobs(baseUrl: () => string) {
  async function automationJobs(): Promise<RunJob[]> {
    const response = await fetch(new URL('/rest/v1/demo/jobs?full=true&limit=1000', baseUrl()), {
      headers: { authorization: basic() },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as RunJob[];
  }

  /** The build's jobs once all `count` of them have ended, as their status says. */
  async function finishedJobs(build: string, count: number): Promise<RunJob[]> {
    // However long the machine takes to get there: vitest's limit is the safety net, and the
    // pause only spares the emulator a busy loop.
    for (;;) {
      const jobs = (await automationJobs()).filter((job) => job.build === build);
      if (jobs.length === count && jobs.every((job) => job.status === 'complete')) return jobs;
      await sleep(10);
    }
  }

  return { automationJobs, finishedJobs };
}
