/** The automation records the seed describes, as they stand when the emulator starts. */
import type { StoreEnvironment } from '../../shared/store-state.ts';
import { hexId } from '../ids.ts';
import { unixSeconds, type AutomationData, type JobRecord } from '../model.ts';
import type { AutomationSeed } from '../seed.ts';
import { defaultBugTypes } from './bug-types.ts';
import { newTunnel } from './tunnels.ts';

/** How long a seeded job ran, ending when the seed says. */
const SEEDED_JOB_MS = 60_000;

export function seededAutomationData(seed: AutomationSeed, env: StoreEnvironment): AutomationData {
  const nowMs = env.now();
  const now = unixSeconds(nowMs);
  const data: AutomationData = {
    users: {},
    jobs: {},
    tunnels: {},
    storage: {},
    jsTests: {},
    bugs: {},
    bugTypes: defaultBugTypes(),
  };
  for (const user of seed.users ?? []) {
    data.users[user.username] = {
      id: hexId(),
      username: user.username,
      accessKey: user.accessKey,
      name: user.name ?? user.username,
      email: user.email ?? `${user.username}@example.com`,
      parent: user.parent ?? null,
      partner: user.partner ?? false,
      plan: user.plan ?? null,
      concurrencyLimit: {
        overall: user.concurrencyLimit ?? 5,
        mac: user.concurrencyLimit ?? 5,
        realDevice: 2,
      },
      creationTime: now - 86_400 * 30,
    };
  }
  for (const tunnel of seed.tunnels ?? []) {
    const record = newTunnel(tunnel, nowMs - 600_000);
    data.tunnels[record.id] = record;
  }
  for (const job of seed.jobs ?? []) {
    const createdMs = nowMs - (job.endedSecondsAgo ?? 600) * 1000 - SEEDED_JOB_MS;
    const record: JobRecord = {
      id: job.id ?? hexId(),
      owner: job.owner,
      name: job.name,
      build: job.build ?? null,
      browser: job.browser ?? 'chrome',
      browserVersion: job.browserVersion ?? '130.0',
      os: job.os ?? 'Windows 11',
      automationBackend: 'webdriver',
      passes: job.passes,
      passedOverride: null,
      tags: job.tags ?? [],
      customData: null,
      public: 'team',
      tunnelIdentifier: null,
      tunnelId: null,
      createdMs,
      durationMs: SEEDED_JOB_MS,
      stoppedMs: null,
      modifiedMs: createdMs,
      assetsDeleted: false,
    };
    data.jobs[record.id] = record;
  }
  for (const bug of seed.bugs ?? []) {
    data.bugs[bug.id] = {
      id: bug.id,
      owner: bug.owner,
      type: bug.type,
      jobId: bug.jobId ?? null,
      properties: { Title: bug.title, Description: bug.description },
      creationTime: now - 3000,
      modificationTime: now - 3000,
    };
  }
  return data;
}
