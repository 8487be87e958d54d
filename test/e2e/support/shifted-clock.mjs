/**
 * Preloaded into a step's process (`--import`) to set its wall clock off by `SHIFTED_CLOCK_MS`
 * milliseconds, as a runner whose clock is wrong would be: `Date.now()` and `new Date()` move,
 * the monotonic clock (`performance.now()`) and timers do not. With `SHIFTED_CLOCK_FROM_MS`, the
 * clock is right until the process has run that long, then steps by the shift at once, as a
 * clock set by NTP during a step does.
 */
import { performance } from 'node:perf_hooks';

const shiftMs = Number(process.env.SHIFTED_CLOCK_MS ?? '0');
const fromMs = Number(process.env.SHIFTED_CLOCK_FROM_MS ?? '0');
const SystemDate = Date;
const shiftNow = () => (performance.now() >= fromMs ? shiftMs : 0);

class ShiftedDate extends SystemDate {
  constructor(...args) {
    if (args.length === 0) super(SystemDate.now() + shiftNow());
    else super(...args);
  }

  static now() {
    return SystemDate.now() + shiftNow();
  }
}

if (Number.isFinite(shiftMs) && shiftMs !== 0) globalThis.Date = ShiftedDate;
