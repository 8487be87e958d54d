import { describe, expect, it } from 'vitest';
import { DEMO_ACCESS_KEY, DEMO_USER, sleep, withEmulator } from '../support/emulator.ts';

describe('automation store contract', () => {
  const handle = withEmulator({ jobDurationMs: 50 });

  it('verifies the seeded account and refuses wrong keys or users', () => {
    const store = handle.emulator.context.automation;
    expect(store.verifyUser(DEMO_USER, DEMO_ACCESS_KEY)).toBe(true);
    expect(store.verifyUser(DEMO_USER, 'wrong')).toBe(false);
    expect(store.verifyUser('nobody', DEMO_ACCESS_KEY)).toBe(false);
    expect(store.verifyUser('__proto__', '')).toBe(false);
  });

  it('knows the running demo tunnel by name and owner only', () => {
    const store = handle.emulator.context.automation;
    expect(store.hasRunningTunnel(DEMO_USER, 'demo-tunnel')).toBe(true);
    expect(store.hasRunningTunnel(DEMO_USER, 'other')).toBe(false);
    expect(store.hasRunningTunnel('someone', 'demo-tunnel')).toBe(false);
  });

  it('creates jobs that end with the requested outcome', async () => {
    const store = handle.emulator.context.automation;
    const passing = store.createJob({ name: 'a', build: 'b', browser: 'chrome', os: 'Linux', passes: true });
    const failing = store.createJob({
      name: 'c',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: false,
      tunnelIdentifier: 'demo-tunnel',
    });
    expect(passing.id).toMatch(/^[0-9a-f]{32}$/);
    expect(store.job(passing.id)?.owner).toBe(DEMO_USER);
    expect(store.job(failing.id)?.tunnelId).toBe(store.runningTunnel(DEMO_USER, 'demo-tunnel')?.id);
    await sleep(70);
    const { jobView } = await import('../../src/automation/job-view.ts');
    const now = Date.now();
    expect(jobView(store.job(passing.id)!, now, 'http://x')).toMatchObject({
      status: 'complete',
      passed: true,
    });
    expect(jobView(store.job(failing.id)!, now, 'http://x')).toMatchObject({
      status: 'complete',
      passed: false,
      consolidated_status: 'failed',
    });
  });
});
