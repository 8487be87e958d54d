/** When a schedule runs next, from its cron expression and time zone. */
import { CronExpressionParser } from 'cron-parser';

export function isValidTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** An error message when the cron expression cannot be parsed, else undefined. */
export function cronProblem(cron: string): string | undefined {
  try {
    CronExpressionParser.parse(cron, { tz: 'UTC' }).next();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

interface TimingInput {
  cron: string;
  timezone: string;
  startDate?: string | undefined;
  endDate?: string | undefined;
  enabled: boolean;
  /** Runs left before maxRuns is reached; null when unlimited. */
  remainingRuns: number | null;
}

/**
 * The next run at or after `now` (and not before startDate), as ISO 8601; null when the schedule is
 * disabled, has no runs left, or its next run would fall after endDate.
 */
export function nextRunDate(input: TimingInput, now: number): string | null {
  if (!input.enabled || input.remainingRuns === 0) return null;
  const start = input.startDate ? Math.max(now, Date.parse(input.startDate)) : now;
  try {
    const next = CronExpressionParser.parse(input.cron, { tz: input.timezone, currentDate: new Date(start) })
      .next()
      .getTime();
    if (input.endDate && next > Date.parse(input.endDate)) return null;
    return new Date(next).toISOString();
  } catch {
    return null;
  }
}
