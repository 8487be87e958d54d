/** Running test cases and suites: each run target becomes one simulated automation job. */
import type { AutomationJobs } from '../../automation/store/jobs.ts';
import type { AutomationTunnels } from '../../automation/store/tunnels.ts';
import type { StoreState } from '../../shared/store-state.ts';
import { BuildNames, CASE_RUN_BUILD_MAX, SUITE_RUN_BUILD_MAX } from '../build-names.ts';
import { badRequest, notFound } from '../errors.ts';
import { newHexId, newUuid } from '../ids.ts';
import type {
  AuthoringData,
  AuthoringUser,
  CaseRunJob,
  CaseRunRecord,
  RunTarget,
  SuiteRunRecord,
  TestCaseRecord,
} from '../model.ts';
import { AuthoringPart } from './part.ts';
import type { ScriptedOutcomes } from './scripted-outcomes.ts';
import type { TestSuites } from './suites.ts';
import type { TestCases } from './test-cases.ts';

/** What a run needs of the automation interface: its running tunnels and its simulated jobs. */
export interface SimulatedJobs {
  tunnels: Pick<AutomationTunnels, 'hasRunning'>;
  jobs: Pick<AutomationJobs, 'create'>;
}

export interface CaseRunInput {
  buildName?: string;
  /** Replace the case's own targets for this run. */
  targets?: RunTarget[];
  scTunnelName?: string | null;
  revisionId?: string;
}

interface SuiteRunInput {
  buildName?: string;
  scTunnelName?: string | null;
}

/**
 * Dashboard link of a job. The emulator's dashboard pages are not where the service's are; the
 * link has the live service's form (us-west-1) so that clients that show it, or parse the job id
 * out of it, behave as they would.
 */
function jobUrl(sauceJobId: string): string {
  return `https://app.saucelabs.com/tests/${sauceJobId}`;
}

/** A case's own run targets: its primary target, then any additional ones. */
function targetsOf(testCase: TestCaseRecord): RunTarget[] {
  const { primaryTarget, additionalTargets } = testCase.runSettings;
  return [...(primaryTarget ? [primaryTarget] : []), ...(additionalTargets ?? [])];
}

export class Runs extends AuthoringPart {
  readonly #testCases: TestCases;
  readonly #suites: TestSuites;
  readonly #outcomes: ScriptedOutcomes;
  readonly #automation: SimulatedJobs;
  #buildNames: BuildNames | undefined;

  constructor(
    state: StoreState<AuthoringData>,
    testCases: TestCases,
    suites: TestSuites,
    outcomes: ScriptedOutcomes,
    automation: SimulatedJobs,
  ) {
    super(state);
    this.#testCases = testCases;
    this.#suites = suites;
    this.#outcomes = outcomes;
    this.#automation = automation;
  }

  /** POST /testcases/{id}/run: one job per target, the build named after the case unless told. */
  runCase(caseId: string, input: CaseRunInput, user: AuthoringUser): CaseRunRecord {
    const testCase = this.#testCases.get(caseId);
    if (input.revisionId !== undefined) {
      const wanted = input.revisionId.toLowerCase();
      // Every revision runs the same simulated steps: the revision only has to exist.
      if (!testCase.revisions.some((revision) => revision.id === wanted)) {
        throw notFound(`revision ${input.revisionId} of test case ${caseId} not found`);
      }
    }
    const targets = input.targets ?? targetsOf(testCase);
    if (targets.length === 0) throw badRequest(`test case ${testCase.id} has no run targets configured`);
    this.#checkTunnel(user, input.scTunnelName);
    const asked = input.buildName ?? testCase.name;
    const build = { asked, given: this.#claimBuildName(asked, CASE_RUN_BUILD_MAX) };
    const run = this.#startCaseRun(testCase, targets, build, input.scTunnelName, user, null);
    this.state.changed();
    return run;
  }

  /**
   * POST /testsuites/{id}/run: queues one case run per case of the suite, all in one build.
   *
   * Cases without run targets are refused, not skipped. Seed 000 says a suite run "queues a case
   * run for every case in the suite" and that `runCount` is the number of case runs queued, while
   * a case run of a case with no run targets configured is a 400. A suite run that quietly left
   * such cases out would answer a `runCount` short of the suite's cases and report the suite as
   * run when part of it never was; so the whole run is refused with a 400 that names those cases,
   * before any job starts. A suite with no cases at all is the seed's "suite with no jobs to run"
   * (400).
   */
  runSuite(suiteId: string, input: SuiteRunInput, user: AuthoringUser): SuiteRunRecord {
    const suite = this.#suites.get(suiteId);
    const cases = this.#testCases.ofSuite(suite.id);
    if (cases.length === 0) throw badRequest(`test suite ${suite.id} has no jobs to run`);
    const withoutTargets = cases.filter((testCase) => targetsOf(testCase).length === 0);
    if (withoutTargets.length > 0) {
      const named = withoutTargets.map((testCase) => `${testCase.id} (${testCase.name})`).join(', ');
      throw badRequest(
        `test suite ${suite.id} cannot run: ${withoutTargets.length} of its ${cases.length} test cases ` +
          `have no run targets configured: ${named}`,
      );
    }
    this.#checkTunnel(user, input.scTunnelName);
    const asked = input.buildName ?? suite.name;
    const buildName = this.#claimBuildName(asked, SUITE_RUN_BUILD_MAX);
    const run: SuiteRunRecord = {
      id: newUuid(),
      buildName,
      runCount: cases.length,
      orgId: this.state.data.orgId,
      teamId: user.teamId,
      userId: user.id,
      testSuiteId: suite.id,
      creationDate: this.nowIso(),
    };
    for (const testCase of cases) {
      const build = { asked, given: buildName };
      this.#startCaseRun(testCase, targetsOf(testCase), build, input.scTunnelName, user, run.id);
    }
    this.state.data.suiteRuns.push(run);
    suite.runCount += 1;
    this.state.changed();
    return run;
  }

  /** A named tunnel must be a running tunnel of the user; null or absent runs without one. */
  #checkTunnel(user: AuthoringUser, scTunnelName: string | null | undefined): void {
    if (scTunnelName === undefined || scTunnelName === null) return;
    if (!this.#automation.tunnels.hasRunning(user.username, scTunnelName)) {
      throw badRequest(`secure tunnel ${scTunnelName} does not exist or is not running`);
    }
  }

  /** A unique build name, recorded in the persisted list; the lookup is rebuilt when a reset or a load replaced it. */
  #claimBuildName(wanted: string, max: number): string {
    const { buildNames } = this.state.data;
    if (!this.#buildNames?.follows(buildNames)) this.#buildNames = new BuildNames(buildNames);
    return this.#buildNames.claim(wanted, max);
  }

  /**
   * Whether a case's jobs of this run pass: as scripted, while the case has scripted outcomes
   * left (one for the whole run, every target alike), else as seeded. A flaky case fails the
   * first time it runs in a build and passes on its later runs there. The service makes every
   * build name unique (`X`, `X - 1`), so a run asked for in build `X` lands in `X - 1` when `X`
   * was used; "the same build" is therefore an earlier run of the case whose build is the name
   * asked for now or the one given now: a retry sent with the first run's build name, or with the
   * same name asked, passes. A scripted run counts as a run in its build.
   */
  #casePasses(testCase: TestCaseRecord, builds: readonly string[]): boolean {
    const scripted = this.#outcomes.take(testCase.id);
    if (scripted !== undefined) return scripted === 'passed';
    if (testCase.expectedOutcome !== 'flaky') return testCase.expectedOutcome !== 'fail';
    return this.state.data.caseRuns.some(
      (run) => run.testCaseId === testCase.id && builds.includes(run.build),
    );
  }

  #startCaseRun(
    testCase: TestCaseRecord,
    targets: RunTarget[],
    build: { asked: string; given: string },
    scTunnelName: string | null | undefined,
    user: AuthoringUser,
    suiteRunId: string | null,
  ): CaseRunRecord {
    const runId = newHexId();
    const passes = this.#casePasses(testCase, [build.asked, build.given]);
    const jobs: CaseRunJob[] = targets.map((target) => {
      const capabilities = target.capabilities;
      const { id: sauceJobId } = this.#automation.jobs.create({
        name: testCase.name,
        build: build.given,
        browser: typeof capabilities.browserName === 'string' ? capabilities.browserName : 'chrome',
        browserVersion:
          typeof capabilities.browserVersion === 'string' ? capabilities.browserVersion : undefined,
        os: typeof capabilities.platformName === 'string' ? capabilities.platformName : 'Windows 11',
        passes,
        owner: user.username,
        tags: ['ai-authoring'],
        tunnelIdentifier: scTunnelName ?? null,
        customData: { testCaseId: testCase.id, testCaseRunId: runId },
      });
      return {
        id: newHexId(),
        sauceJobId,
        name: testCase.name,
        target,
        url: jobUrl(sauceJobId),
        isRdc: target.isRdc === true,
        // A case run is answered when queued: no job has finished yet.
        success: null,
        error: null,
      };
    });
    const run: CaseRunRecord = {
      id: runId,
      orgId: this.state.data.orgId,
      teamId: user.teamId,
      userId: user.id,
      testCaseId: testCase.id,
      build: build.given,
      jobs,
      creationDate: this.nowIso(),
      testUrl: testCase.runSettings.testUrl ?? '',
      suiteRunId,
    };
    this.state.data.caseRuns.push(run);
    return run;
  }
}
