/**
 * The paths the dashboard pages answer. The traffic hooks (journal, faults, rate limit) leave
 * them alone, as they are not part of the services' interfaces.
 */
const DASHBOARD_PATH = /^\/(tests|projects)(\/|$|\?)/;

export function isDashboardPath(url: string): boolean {
  return DASHBOARD_PATH.test(url);
}
