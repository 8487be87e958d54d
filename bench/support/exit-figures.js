/**
 * Preloaded (`node --import`) into a process measured from outside, such as a bundled action run
 * by the harness: prints, as it exits, how long it lived (from Node's start) and its peak
 * resident memory, on stderr. The peak is the process's own (VmHWM): `resourceUsage().maxRSS`
 * also counts the parent's memory at the fork, which a benchmark's parent process inflates.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

process.on('exit', () => {
  const lifetime = performance.now().toFixed(1);
  let peak = process.resourceUsage().maxRSS * 1024;
  try {
    peak = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024 || peak;
  } catch {
    // Not Linux: the rusage figure stands.
  }
  process.stderr.write(`exit-figures lifetime-ms ${lifetime} max-rss-bytes ${peak}\n`);
});
