/**
 * The requests that queue runs, as pure functions of the inputs and the plan: a case run in the
 * build its selection names (a retry runs in the build of the run it repeats), on its own
 * targets, else `targets`, else the case's; a suite run in the step's build. The tunnel is `null`
 * when none is named, as the service expects.
 */
import type { AuthoringRunTarget, RunTestCaseInput, RunTestSuiteInput } from '@sauce-actions/api';
import type { CaseSelection } from './selection.ts';

/** What every run of the step shares: its build, its tunnel, the `targets` input. */
export interface RunSettings {
  buildName: string;
  tunnelName?: string;
  targets?: readonly AuthoringRunTarget[];
}

export function caseRunRequest(
  settings: RunSettings,
  selection: CaseSelection,
): RunTestCaseInput & { buildName: string } {
  const targets = selection.targets ?? settings.targets;
  return {
    buildName: selection.buildName ?? settings.buildName,
    scTunnelName: settings.tunnelName ?? null,
    ...(targets ? { targets: [...targets] } : {}),
  };
}

/** A suite run takes no targets: each case runs on its own. */
export function suiteRunRequest(
  settings: Omit<RunSettings, 'targets'>,
): RunTestSuiteInput & { buildName: string; scTunnelName: string | null } {
  return { buildName: settings.buildName, scTunnelName: settings.tunnelName ?? null };
}
