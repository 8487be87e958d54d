import { describe, expect, it } from 'vitest';
import { DEMO_ACCESS_KEY, DEMO_USER, sleep, withEmulator } from '../support/emulator.ts';

describe('automation store contract', () => {
  const handle = withEmulator({ jobDurationMs: 50 });

  it('verifies the seeded account and refuses wrong keys or users', () => {
    const store = handle.emulator.context.automation;
    expect(store.accounts.verify(DEMO_USER, DEMO_ACCESS_KEY)).toBe(true);
    expect(store.accounts.verify(DEMO_USER, 'wrong')).toBe(false);
    expect(store.accounts.verify('nobody', DEMO_ACCESS_KEY)).toBe(false);
    expect(store.accounts.verify('__proto__', '')).toBe(false);
  });

  it('knows the running demo tunnel by name and owner only', () => {
    const store = handle.emulator.context.automation;
    expect(store.tunnels.hasRunning(DEMO_USER, 'demo-tunnel')).toBe(true);
    expect(store.tunnels.hasRunning(DEMO_USER, 'other')).toBe(false);
    expect(store.tunnels.hasRunning('someone', 'demo-tunnel')).toBe(false);
  });

  it('creates jobs that end with the requested outcome', async () => {
    const store = handle.emulator.context.automation;
    const passing = store.jobs.create({
      name: 'a',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    });
    const failing = store.jobs.create({
      name: 'c',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: false,
      tunnelIdentifier: 'demo-tunnel',
    });
    expect(passing.id).toMatch(/^[0-9a-f]{32}$/);
    expect(store.jobs.get(passing.id)?.owner).toBe(DEMO_USER);
    expect(store.jobs.get(failing.id)?.tunnelId).toBe(store.tunnels.running(DEMO_USER, 'demo-tunnel')?.id);
    await sleep(70);
    const { jobView } = await import('../../src/automation/job-view.ts');
    const now = Date.now();
    expect(jobView(store.jobs.get(passing.id)!, now, 'http://x')).toMatchObject({
      status: 'complete',
      passed: true,
    });
    expect(jobView(store.jobs.get(failing.id)!, now, 'http://x')).toMatchObject({
      status: 'complete',
      passed: false,
      consolidated_status: 'failed',
    });
  });
});
