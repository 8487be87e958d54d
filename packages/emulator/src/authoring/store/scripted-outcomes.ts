/**
 * Outcomes scripted for the next runs of a test case (`POST /_emulator/outcomes`), so that a test
 * can make a history of runs: a case that passes one night and fails the next. Each run of the
 * case, a case run or a suite run that includes it, uses up the next outcome; every job of that
 * run (one per target) ends with it. With none left, the case runs as seeded again.
 *
 * The scripts are records of the store: `--data-dir` keeps them, and a reset (back to the seed)
 * clears them.
 */
import type { StoreState } from '../../shared/store-state.ts';
import { badRequest, notFound } from '../errors.ts';
import type { AuthoringData, ScriptedOutcome, TestCaseRecord } from '../model.ts';
import { AuthoringPart } from './part.ts';
import type { TestCases } from './test-cases.ts';

export const SCRIPTED_OUTCOMES: readonly ScriptedOutcome[] = ['passed', 'failed'];

/** The most outcomes one case may have scripted at a time. */
export const MAX_SCRIPTED_OUTCOMES = 1000;

export interface CaseScript {
  testCaseId: string;
  testCaseName: string;
  /** The outcomes still to come, the next one first. */
  outcomes: ScriptedOutcome[];
}

export class ScriptedOutcomes extends AuthoringPart {
  readonly #testCases: TestCases;

  constructor(state: StoreState<AuthoringData>, testCases: TestCases) {
    super(state);
    this.#testCases = testCases;
  }

  /**
   * The case a name or an id names. An id wins over a name; a name must be one case's alone, as
   * a script meant for one of two cases of that name would silently reach the other.
   */
  caseNamed(nameOrId: string): TestCaseRecord {
    const byId = this.#testCases.find(nameOrId);
    if (byId) return byId;
    const named = this.state.data.testCases.filter((testCase) => testCase.name === nameOrId);
    const [only, ...others] = named;
    if (!only) throw notFound(`no test case has the name or id ${JSON.stringify(nameOrId)}`);
    if (others.length > 0) {
      const ids = named.map((testCase) => testCase.id).join(', ');
      throw badRequest(
        `the name ${JSON.stringify(nameOrId)} is shared by ${named.length} test cases (${ids}): give the id of one`,
      );
    }
    return only;
  }

  /** Sets the case's next outcomes, in place of any it had left. */
  script(testCase: TestCaseRecord, outcomes: readonly ScriptedOutcome[]): CaseScript {
    this.#scripts()[testCase.id] = [...outcomes];
    this.state.changed();
    return this.#view(testCase);
  }

  /** The scripts with outcomes left, of cases that still exist. */
  list(): CaseScript[] {
    return this.state.data.testCases
      .filter((testCase) => (this.#scripts()[testCase.id]?.length ?? 0) > 0)
      .map((testCase) => this.#view(testCase));
  }

  /** Removes every script; answers how many outcomes were still to come. */
  clear(): number {
    const removed = Object.values(this.#scripts()).reduce((sum, outcomes) => sum + outcomes.length, 0);
    this.state.data.scriptedOutcomes = {};
    this.state.changed();
    return removed;
  }

  /** The case's next scripted outcome, used up (the run that takes it records the change); undefined when none is left. */
  take(caseId: string): ScriptedOutcome | undefined {
    const scripts = this.#scripts();
    const outcomes = Object.hasOwn(scripts, caseId) ? scripts[caseId] : undefined;
    const next = outcomes?.shift();
    if (outcomes && outcomes.length === 0) Reflect.deleteProperty(scripts, caseId);
    return next;
  }

  #scripts(): Record<string, ScriptedOutcome[]> {
    return (this.state.data.scriptedOutcomes ??= {});
  }

  #view(testCase: TestCaseRecord): CaseScript {
    return {
      testCaseId: testCase.id,
      testCaseName: testCase.name,
      outcomes: [...(this.#scripts()[testCase.id] ?? [])],
    };
  }
}
