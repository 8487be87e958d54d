/** The `format=csv` job list: one line per job with the summary columns. */
const COLUMNS = [
  'id',
  'name',
  'build',
  'status',
  'passed',
  'consolidated_status',
  'owner',
  'browser',
  'browser_version',
  'os',
  'creation_time',
  'start_time',
  'end_time',
] as const;

function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function jobsCsv(jobs: Record<string, unknown>[]): string {
  const lines = [COLUMNS.join(',')];
  for (const job of jobs) lines.push(COLUMNS.map((column) => cell(job[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
