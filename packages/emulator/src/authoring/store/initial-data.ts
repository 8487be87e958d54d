/**
 * The authoring records the seed describes, as they stand when the emulator starts; the seeded
 * artifacts are written into the files folder, where downloads stream them from.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoreEnvironment } from '../../shared/store-state.ts';
import { newHexId, newUuid } from '../ids.ts';
import type {
  ArtifactRecord,
  AuthoringData,
  TestCaseRecord,
  TestScheduleRecord,
  TestSuiteRecord,
} from '../model.ts';
import { DEFAULT_ORG_ID, DEMO_TEAM_ID, type AuthoringSeed } from '../seed.ts';

/** Folder, inside the emulator's files folder, that holds stored artifacts. */
const ARTIFACTS_DIR = 'authoring-artifacts';

export function seededAuthoringData(seed: AuthoringSeed, env: StoreEnvironment): AuthoringData {
  const now = new Date(env.now()).toISOString();
  const orgId = seed.orgId ?? DEFAULT_ORG_ID;
  const users = (seed.users ?? []).map((user) => ({ ...user }));
  const defaultTeamId = users[0]?.teamId ?? DEMO_TEAM_ID;
  const firstUserId = users[0]?.id ?? newUuid();
  const teamOf = (userId: string) => users.find((user) => user.id === userId)?.teamId ?? defaultTeamId;

  const testSuites: TestSuiteRecord[] = (seed.testSuites ?? []).map((suite) => {
    const creator = suite.creatorUserId ?? firstUserId;
    const created = suite.creationDate ?? now;
    return {
      id: suite.id.toLowerCase(),
      orgId,
      teamId: teamOf(creator),
      name: suite.name,
      tags: [...(suite.tags ?? [])],
      creationDate: created,
      lastUpdate: created,
      creatorUserId: creator,
      lastModifierUserId: creator,
      runCount: 0,
    };
  });

  const testCases: TestCaseRecord[] = (seed.testCases ?? []).map((seedCase) => {
    const creator = seedCase.creatorUserId ?? firstUserId;
    const created = seedCase.creationDate ?? now;
    return {
      id: seedCase.id.toLowerCase(),
      orgId,
      teamId: teamOf(creator),
      creatorUserId: creator,
      lastModifierUserId: creator,
      testSuiteId: seedCase.testSuiteId?.toLowerCase() ?? null,
      name: seedCase.name,
      creationDate: created,
      lastUpdateDate: created,
      runSettings: structuredClone(seedCase.runSettings ?? {}),
      revisions: [
        {
          id: newHexId(),
          revisionNumber: 1,
          name: seedCase.name,
          creationDate: created,
          creatorUserId: creator,
        },
      ],
      expectedOutcome: seedCase.expectedOutcome ?? 'pass',
    };
  });

  const testSchedules: TestScheduleRecord[] = (seed.testSchedules ?? []).map((schedule) => {
    const creator = schedule.creatorUserId ?? firstUserId;
    const created = schedule.creationDate ?? now;
    return {
      id: schedule.id.toLowerCase(),
      orgId,
      teamId: teamOf(creator),
      name: schedule.name,
      creationDate: created,
      lastUpdateDate: created,
      creatorUserId: creator,
      lastModifierUserId: creator,
      testSuiteIds: schedule.testSuiteIds.map((id) => id.toLowerCase()),
      settings: { ...schedule.settings },
      stateName: schedule.stateName ?? 'ENABLED',
      lastRunDate: null,
      runCount: 0,
    };
  });

  const artifactsDir = path.join(env.filesDir, ARTIFACTS_DIR);
  mkdirSync(artifactsDir, { recursive: true });
  const artifacts: ArtifactRecord[] = (seed.artifacts ?? []).map((artifact) => {
    const id = artifact.id.toLowerCase();
    const bytes = Buffer.from(artifact.contentBase64, 'base64');
    writeFileSync(path.join(artifactsDir, id), bytes);
    return {
      id,
      orgId,
      fileName: artifact.fileName,
      contentType: artifact.contentType ?? 'application/octet-stream',
      size: bytes.length,
      file: path.join(ARTIFACTS_DIR, id),
    };
  });

  return {
    orgId,
    defaultTeamId,
    users,
    testCases,
    testSuites,
    testSchedules,
    artifacts,
    caseRuns: [],
    suiteRuns: [],
    buildNames: [],
    scriptedOutcomes: {},
  };
}
