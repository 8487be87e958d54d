/**
 * What upload-build checks before it sends the file, with the client faked: the credentials
 * before a file of more than 20 MiB, and the tester groups, which exist under the names the
 * account has them; what stops the upload and what only warns.
 */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError, type MobileUploadOptions } from '@sauce-actions/api';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/run.ts';
import { GROUPS, inputs, RESULT, useUploadWorkspace, WITH_EMAIL } from './helpers.ts';

const { deps, writeApp } = useUploadWorkspace();

describe('upload-build run', () => {
  it('checks the credentials before sending a file of more than 20 MiB, and sends nothing when refused', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const upload = vi.fn(async () => RESULT);
    const listProjects = vi.fn(async () => {
      throw new ApiError({ operation: 'listProjects', method: 'GET', url: '/api/2/projects/', status: 401 });
    });
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      apiKey: 'k',
      email: 'a@b.c',
    };
    const error = await run(inputs({ file: 'big.apk', connection }), deps(upload, listProjects)).catch(
      (e: unknown) => e,
    );
    expect(listProjects).toHaveBeenCalledOnce();
    expect(upload).not.toHaveBeenCalled();
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as Error).message).toMatch(
      /^The API key was refused by the us-east-1 data center \(code 5\)/,
    );

    const accepted = vi.fn(async () => ({ status: 'ok', projects: [] }));
    const step = deps(upload, accepted);
    await run(inputs({ file: 'big.apk', connection }), step);
    expect(accepted).toHaveBeenCalledOnce();
    expect(upload).toHaveBeenCalledOnce();
    expect(step.logger.lines()[0]).toBe(`Uploading big.apk (21.0 MiB) to us-east-1`);
  });

  it('sends the file anyway, with a warning, when the check fails for another reason than the key', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const upload = vi.fn(async () => RESULT);
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      apiKey: 'k',
      email: 'a@b.c',
    };
    for (const status of [403, 503]) {
      const step = deps(upload, async () => {
        throw new ApiError({ operation: 'listProjects', method: 'GET', url: '/api/2/projects/', status });
      });
      const result = await run(inputs({ file: 'big.apk', connection }), step);
      expect(result.outputs['build-id']).toBe('77');
      expect(step.logger.lines('warning')[0]).toMatch(
        new RegExp(
          `^Could not check the credentials before the upload \\(listProjects: ${status} .*\\); sending the file anyway\\.$`,
        ),
      );
    }
    expect(upload).toHaveBeenCalledTimes(2);
  });

  it('says that only the upload checks a key given without its email, and sends no check', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const listProjects = vi.fn(async () => ({}));
    const step = deps(async () => RESULT, listProjects);
    await run(inputs({ file: 'big.apk' }), step);
    expect(listProjects).not.toHaveBeenCalled();
    expect(step.logger.lines()[0]).toBe(
      'The API key is checked only by the upload itself: set `email` so that a wrong key is found before 21.0 MiB are sent.',
    );
  });

  it('sends no check before a small file', async () => {
    writeApp();
    const listProjects = vi.fn(async () => ({}));
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      apiKey: 'k',
      email: 'a@b.c',
    };
    await run(
      inputs({ connection }),
      deps(async () => RESULT, listProjects),
    );
    expect(listProjects).not.toHaveBeenCalled();
  });

  it('checks the groups before sending the file, and sends nothing when one does not exist', async () => {
    writeApp();
    const upload = vi.fn(async () => RESULT);
    const listGroups = vi.fn(async () => ({ status: 'ok', groups: structuredClone(GROUPS) }));
    const error = await run(
      inputs({ groups: ['qa', 'nope', 'gone'], connection: WITH_EMAIL }),
      deps(upload, undefined, listGroups),
    ).catch((e: unknown) => e);
    expect(listGroups).toHaveBeenCalledOnce();
    expect(upload).not.toHaveBeenCalled();
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as Error).message).toBe(
      'Unknown tester groups: nope, gone (the account has: qa, beta). Fix `groups`: the file was not sent. To create groups, run invite-testers with `create-groups: true` after the upload instead.',
    );
  });

  it('sends the checked groups by the names the account has them under', async () => {
    writeApp();
    let sent: MobileUploadOptions | undefined;
    const step = deps(async (_file, options) => {
      sent = options;
      return RESULT;
    });
    const result = await run(inputs({ groups: ['2', 'qa'], connection: WITH_EMAIL }), step);
    expect(sent?.groups).toEqual(['beta', 'qa']);
    expect(result.summary).toContain('<td>Groups</td><td>beta, qa</td>');
    expect(step.logger.lines('warning')).toEqual([]);
  });

  it('without `email`, warns that the groups were not checked and sends them as given', async () => {
    writeApp();
    const listGroups = vi.fn(async () => ({ status: 'ok', groups: [] }));
    let sent: MobileUploadOptions | undefined;
    const step = deps(
      async (_file, options) => {
        sent = options;
        return RESULT;
      },
      undefined,
      listGroups,
    );
    await run(inputs({ groups: ['qa', 'nope'] }), step);
    expect(listGroups).not.toHaveBeenCalled();
    expect(sent?.groups).toEqual(['qa', 'nope']);
    expect(step.logger.lines('warning')).toEqual([
      'The tester groups (qa, nope) were not checked: set `email` with `api-key` so that a group that does not exist is found before the file is sent.',
    ]);
  });

  it('checks the groups with an OIDC token too', async () => {
    writeApp();
    const upload = vi.fn(async () => RESULT);
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      oidcToken: 't',
      oidcConfigKey: 'c',
    };
    const error = await run(inputs({ groups: ['nope'], connection }), deps(upload)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Unknown tester group: nope \(the account has: qa, beta\)/);
    expect(upload).not.toHaveBeenCalled();
  });

  it('stops at a key refused by the group check; other trouble there warns and sends the file', async () => {
    writeApp();
    const upload = vi.fn(async () => RESULT);
    const refused = await run(
      inputs({ groups: ['qa'], connection: WITH_EMAIL }),
      deps(upload, undefined, async () => {
        throw new ApiError({
          operation: 'listTesterGroups',
          method: 'GET',
          url: '/api/1/testers/groups',
          status: 401,
        });
      }),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ActionError);
    expect((refused as Error).message).toMatch(
      /^The API key was refused by the us-east-1 data center \(code 5\)/,
    );
    expect(upload).not.toHaveBeenCalled();

    let sent: MobileUploadOptions | undefined;
    const step = deps(
      async (_file, options) => {
        sent = options;
        return RESULT;
      },
      undefined,
      async () => {
        throw new ApiError({
          operation: 'listTesterGroups',
          method: 'GET',
          url: '/api/1/testers/groups',
          status: 503,
        });
      },
    );
    const result = await run(inputs({ groups: ['qa'], connection: WITH_EMAIL }), step);
    expect(result.outputs['build-id']).toBe('77');
    expect(sent?.groups).toEqual(['qa']);
    expect(step.logger.lines('warning')[0]).toMatch(
      /^Could not check the tester groups before the upload \(listTesterGroups: 503 .*\); sending the file with `groups` unchecked\.$/,
    );
  });

  it('needs no separate credentials check before a large file once the groups were listed', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const listProjects = vi.fn(async () => ({ status: 'ok', projects: [] }));
    const listGroups = vi.fn(async () => ({ status: 'ok', groups: structuredClone(GROUPS) }));
    const upload = vi.fn(async () => RESULT);
    await run(
      inputs({ file: 'big.apk', groups: ['qa'], connection: WITH_EMAIL }),
      deps(upload, listProjects, listGroups),
    );
    expect(listGroups).toHaveBeenCalledOnce();
    expect(listProjects).not.toHaveBeenCalled();
    expect(upload).toHaveBeenCalledOnce();
  });
});
