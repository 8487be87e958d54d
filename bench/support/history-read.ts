/**
 * Reading a series' history back from the service, against what a user would do without the
 * records: on an emulator holding earlier nights (one a day, every case each) among other
 * pipelines' jobs (`history-seed.ts`), each night's record kept on its first job by the kit's
 * `recordRun`, the kit's `readHistory` reads the nights back; the naive way lists every job of
 * the window, whole, and picks each night's jobs by build name, at the widest page the service
 * serves and at the documented default of 100. Requests are the emulator journal's. The emulator
 * has no rate limit here, so that the naive way ends; the figures give what the documented 10
 * requests a second would make of each.
 */
import { SauceClient, type Job } from '@sauce-actions/api';
import { startEmulator } from '@sauce-actions/emulator';
import { RequestPacer } from '@sauce-actions/action-kit/step/request-pacer';
import { DEFAULT_PAGE, JOB_PAGE_WIDTH, jobPages } from '@sauce-actions/action-kit/test-run/job-window';
import {
  HISTORY_WINDOW_MS,
  readHistory,
  recordRun,
} from '@sauce-actions/action-kit/test-run/history/history-search';
import {
  itemKey,
  seriesToken,
  type ItemOutcome,
} from '@sauce-actions/action-kit/test-run/history/run-record';
import type { JournalEntry } from './journal-recorder.ts';
import { historySeed, type HistorySeedOptions } from './history-seed.ts';
import { caseFails, caseId } from './nightly-seed.ts';

const SERIES = 'github:https://github.com/example/nightly-app/.github/workflows/nightly.yml';

export interface ReadCount {
  name: string;
  requests: number;
  /** Requests by kind: pages of the job list, and jobs read one by one. */
  pages: number;
  jobGets: number;
  ms: number;
  /** Runs found, and the jobs or items read of them. */
  runs: number;
  items: number;
  shortBy?: string;
}

export interface ReadFigures {
  jobsOnAccount: number;
  history: ReadCount;
  naive: ReadCount[];
}

export async function measureReading(options: HistorySeedOptions): Promise<ReadFigures> {
  const { seed, nights } = historySeed(options);
  const emulator = await startEmulator({ port: 0, seed, jobDurationMs: 1000 });
  const client = new SauceClient({ username: 'demo', accessKey: 'demo-access-key', apiUrl: emulator.url });
  const journal = async (): Promise<JournalEntry[]> => {
    const response = await fetch(`${emulator.url}/_emulator/requests`);
    return ((await response.json()) as { requests: JournalEntry[] }).requests;
  };
  const clearJournal = () => fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' });
  const measured = async (
    name: string,
    read: () => Promise<Omit<ReadCount, 'name' | 'requests' | 'pages' | 'jobGets' | 'ms'>>,
  ): Promise<ReadCount> => {
    await clearJournal();
    const began = performance.now();
    const found = await read();
    const ms = Math.round(performance.now() - began);
    const entries = (await journal()).filter((entry) => !entry.path.startsWith('/_emulator'));
    return {
      name,
      requests: entries.length,
      pages: entries.filter((entry) => /\/jobs$/.test(entry.path)).length,
      jobGets: entries.filter((entry) => /\/jobs\/[^/]+$/.test(entry.path)).length,
      ms,
      ...found,
    };
  };
  try {
    // Each night's record, as its report keeps it: every case's outcome, the night before named.
    const series = seriesToken(SERIES, 'suite Nightly');
    const items: Record<string, ItemOutcome> = {};
    for (let n = 0; n < options.cases; n++) items[itemKey(caseId(n))] = caseFails(n) ? 'failed' : 'passed';
    let previous: string | undefined;
    for (const night of nights) {
      const anchor = await client.automation.jobs.get(night.anchor);
      const record = {
        series,
        branch: 'main',
        pullRequest: false,
        run: { number: night.runNumber, attempt: '1' },
        at: (anchor.creation_time ?? 0) * 1000,
        builds: [night.build],
        items,
        ...(previous !== undefined ? { previous } : {}),
      };
      await recordRun(client.automation.jobs, anchor, record, { pacer: new RequestPacer(0) });
      previous = night.anchor;
    }
    const beforeMs = Date.now();
    const jobsOnAccount = emulator.context.automation.jobs.all().length;

    const history = await measured('history: one search, then each record by its anchor', async () => {
      const found = await readHistory(client.automation.jobs, {
        series,
        defaultBranch: 'main',
        runs: nights.length,
        beforeMs,
        signal: AbortSignal.timeout(600_000),
        pacer: new RequestPacer(0),
      });
      return {
        runs: found.runs.length,
        items: found.runs.reduce((sum, run) => sum + Object.keys(run.items).length, 0),
        ...(found.shortBy !== undefined ? { shortBy: found.shortBy } : {}),
      };
    });

    const builds = new Set(nights.map((night) => night.build));
    const naive = (width: number) => async () => {
      const byBuild = new Map<string, Job[]>();
      const window = {
        from: Math.floor((beforeMs - HISTORY_WINDOW_MS) / 1000),
        to: Math.ceil(beforeMs / 1000),
      };
      for await (const page of jobPages(client.automation.jobs, window, {
        pacer: new RequestPacer(0),
        width,
        // Whole: the naive way has no bound to stop at.
        maxPages: Number.MAX_SAFE_INTEGER,
      })) {
        for (const job of page.jobs) {
          if (job.build === null || !builds.has(job.build)) continue;
          byBuild.set(job.build, [...(byBuild.get(job.build) ?? []), job]);
        }
      }
      return { runs: byBuild.size, items: [...byBuild.values()].reduce((sum, jobs) => sum + jobs.length, 0) };
    };
    const naiveCounts = [
      await measured(
        `naive: the window listed whole, ${JOB_PAGE_WIDTH.toLocaleString('en-US')} a page`,
        naive(JOB_PAGE_WIDTH),
      ),
      await measured(
        `naive: the window listed whole, ${DEFAULT_PAGE} a page (the documented default)`,
        naive(DEFAULT_PAGE),
      ),
    ];
    return { jobsOnAccount, history, naive: naiveCounts };
  } finally {
    await client.close();
    await emulator.close();
  }
}
