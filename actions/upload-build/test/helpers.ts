/**
 * What the tests of upload-build share: a workspace folder for each test, the step's inputs and
 * the service's answer to an upload, and deps whose client is faked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import type { MobileTesterGroup, MobileUploadOptions, MobileUploadResult } from '@sauce-actions/api';
import { afterEach, beforeEach, vi } from 'vitest';
import type { UploadInputs } from '../src/inputs.ts';
import type { UploadDeps } from '../src/run.ts';

/** The step's inputs: a key without its email and `app.apk`, changed by `overrides`. */
export function inputs(overrides: Partial<UploadInputs> = {}): UploadInputs {
  return {
    connection: { service: 'mobile', region: 'us-east-1', apiKey: 'k' },
    file: 'app.apk',
    groups: [],
    notify: false,
    autoUpdate: false,
    tags: [],
    uploadToVendor: false,
    metadata: {},
    gitMetadata: true,
    releaseNotesAuto: false,
    timeoutMs: 60_000,
    prComment: false,
    ...overrides,
  };
}

/** The service's answer to an upload: Demo 1.2.3, build 77 of project 12. */
export const RESULT: MobileUploadResult = {
  status: 'ok',
  build_id: 77,
  project_id: 12,
  app_name: 'Demo',
  app_version: '1.2.3',
  file_size: 2048,
  build_url: 'http://127.0.0.1:1/projects/12/builds/77',
  download_page_url: 'http://127.0.0.1:1/download/abc',
  app_url: '',
  invite_testers_url: 'http://127.0.0.1:1/projects/12/builds/77/invite',
  icon_url: '',
  options: '',
  platform: 'Android',
  tags: ['nightly'],
  metadata: [],
  has_vendor_sdk: false,
  symbols_download_url: '',
  attachments: null,
  landing_page_url: 'http://127.0.0.1:1/p/demo',
  build_specific_landing_page_url: '',
  landing_page_mode: 'open',
};

/** The account's tester groups in the fakes. */
export const GROUPS: MobileTesterGroup[] = [
  { id: 1, name: 'qa', testers: [[]] },
  { id: 2, name: 'beta', testers: [[]] },
];

/** An API key with its email: the REST interface, and so the group and credential checks, are open. */
export const WITH_EMAIL = {
  service: 'mobile' as const,
  region: 'us-east-1' as const,
  apiKey: 'k',
  email: 'a@b.c',
};

export interface UploadWorkspace {
  /** The workspace folder of the current test. */
  readonly dir: string;
  /** Deps of the step in the workspace, whose client uploads with `upload` and lists with the others. */
  deps(
    upload: (file: string, options?: MobileUploadOptions) => Promise<MobileUploadResult>,
    listProjects?: () => Promise<unknown>,
    listGroups?: () => Promise<unknown>,
  ): UploadDeps & TestStepDeps;
  /** Writes an app file of `bytes` bytes in the workspace, its folders too, and returns its path. */
  writeApp(name?: string, bytes?: number): string;
}

/** A new workspace folder for each test, removed after it, the mocks restored. */
export function useUploadWorkspace(): UploadWorkspace {
  let workspace: string | undefined;

  beforeEach(() => {
    workspace = mkdtempSync(path.join(os.tmpdir(), 'upload-build-'));
  });

  afterEach(() => {
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
    workspace = undefined;
    vi.restoreAllMocks();
  });

  const dir = (): string => {
    if (workspace === undefined) throw new Error('the workspace is there only during a test');
    return workspace;
  };

  return {
    get dir() {
      return dir();
    },
    deps(
      upload,
      listProjects = async () => ({ status: 'ok', projects: [] }),
      listGroups = async () => ({ status: 'ok', groups: structuredClone(GROUPS) }),
    ) {
      type Mobile = UploadDeps['client']['mobile'];
      const mobile: Mobile = {
        upload: (file, options) => upload(file, options),
        projects: { list: listProjects } as unknown as Mobile['projects'],
        testerGroups: { list: listGroups } as unknown as Mobile['testerGroups'],
        builds: {} as Mobile['builds'],
      };
      return { ...testStepDeps({ workspace: dir() }), client: { mobile } };
    },
    writeApp(name = 'app.apk', bytes = 2048) {
      const file = path.join(dir(), name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, Buffer.alloc(bytes, 1));
      return file;
    },
  };
}
