/**
 * Preloaded into a step's process (`--import`) to set its wall clock off by `SHIFTED_CLOCK_MS`
 * milliseconds, as a runner whose clock is wrong would be: `Date.now()` and `new Date()` move,
 * the monotonic clock (`performance.now()`) and timers do not.
 */
const shiftMs = Number(process.env.SHIFTED_CLOCK_MS ?? '0');
const SystemDate = Date;

class ShiftedDate extends SystemDate {
  constructor(...args) {
    if (args.length === 0) super(SystemDate.now() + shiftMs);
    else super(...args);
  }

  static now() {
    return SystemDate.now() + shiftMs;
  }
}

if (Number.isFinite(shiftMs) && shiftMs !== 0) globalThis.Date = ShiftedDate;
