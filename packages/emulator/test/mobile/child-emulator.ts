/**
 * An emulator in a process of its own, for tests that measure its memory apart from the test's
 * (the client, the test runner). Started with `fork`: it sends `{ url }` when listening, answers
 * `'memory'` with its peak resident set size and current usage, and exits on `'close'` or when the
 * test process goes away.
 */
import { startEmulator } from '../../src/index.ts';

export interface ChildMemory {
  /** The highest resident set size the process has reached, in bytes. */
  maxRss: number;
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
}

const emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
process.send?.({ url: emulator.url });
process.on('message', (message) => {
  if (message === 'memory') {
    const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
    const memory: ChildMemory = {
      maxRss: process.resourceUsage().maxRSS * 1024,
      rss,
      heapUsed,
      arrayBuffers,
    };
    process.send?.(memory);
  } else if (message === 'close') {
    process.disconnect();
  }
});
// Closing, or the test process going away, ends this one.
process.on('disconnect', () => {
  void emulator.close().finally(() => process.exit(0));
});
