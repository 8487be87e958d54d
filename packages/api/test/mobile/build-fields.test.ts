import { afterEach, describe, expect, it } from 'vitest';
import {
  buildMetadataOf,
  buildTagsOf,
  newestBuild,
  UnreadableUploadTimeError,
} from '../../src/mobile/build-fields.ts';
import { MOBILE_ORIGIN, mockClient, type MockSetup } from '../support/mock.ts';
import { onlyRequest } from './helpers.ts';

describe("a build's tags", () => {
  it.each<[unknown, string[] | undefined]>([
    [
      ['pr-42', 'main'],
      ['pr-42', 'main'],
    ],
    ['pr-42, main', ['pr-42', 'main']],
    [
      ['a,b', 7, null, ' c '],
      ['a', 'b', 'c'],
    ],
    [[], []],
    [undefined, undefined],
    [{ tag: 'x' }, undefined],
  ])('%o are %o', (tags, expected) => {
    expect(buildTagsOf({ tags })).toEqual(expected);
  });
});

describe("a build's metadata", () => {
  it.each<[unknown, Record<string, string> | undefined]>([
    [
      { commit: 'abc1234', 'run-url': 'https://ci/1' },
      { commit: 'abc1234', 'run-url': 'https://ci/1' },
    ],
    [
      [
        { key: 'commit', value: 'abc1234' },
        { name: 'branch', value: 'main' },
      ],
      { commit: 'abc1234', branch: 'main' },
    ],
    [
      { build: 12, ok: true, nested: { x: 1 }, none: null },
      { build: '12', ok: 'true' },
    ],
    [[{ key: 'commit' }, 'loose', null], {}],
    [undefined, undefined],
    ['commit=abc', undefined],
  ])('%o is %o', (metadata, expected) => {
    expect(buildMetadataOf({ metadata })).toEqual(expected);
  });
});

describe('the newest build', () => {
  const builds = [
    { id: 8, uploadedAt: '2026-11-20 10:00:00', tags: ['main'] },
    { id: 9, uploadedAt: '2026-11-20 10:00:00', tags: ['pr-42'] },
    { id: 10, uploadedAt: '2026-11-20 09:59:59', tags: ['pr-42', 'main'] },
    { id: '7', uploadedAt: '2026-11-19 23:00:00', tags: 'pr-41, main' },
  ];
  it.each<[Parameters<typeof newestBuild>[1], number | string | undefined]>([
    [{}, 9],
    [{ tags: ['pr-42'] }, 9],
    [{ tags: ['main'] }, 8],
    [{ tags: ['pr-42', 'main'] }, 10],
    [{ tags: ['pr-41'] }, '7'],
    [{ tags: ['pr-43'] }, undefined],
    [{ except: [9, '8'] }, 10],
    [{ tags: ['main'], except: ['8', 10] }, '7'],
  ])('with %o is %s: the latest upload, then the larger id', (filter, id) => {
    expect(newestBuild(builds, filter)?.id).toBe(id);
  });

  it('orders upload times as instants, whatever their form', () => {
    const mixed = [
      { id: 1, uploadedAt: '2026-11-20 09:00:00', tags: ['a'] },
      { id: 2, uploadedAt: '2026-11-20T10:30:00+02:00', tags: ['a'] },
      { id: 3, uploadedAt: '2026-11-20 10:15:00', tags: ['b'] },
      { id: 4, uploadedAt: '2026-11-20 9:45:00', tags: ['b'] },
    ];
    expect(newestBuild(mixed, { tags: ['a'] })?.id).toBe(1);
    expect(newestBuild(mixed, { tags: ['b'] })?.id).toBe(3);
  });

  it('throws naming the build when a candidate has no readable upload time, and not for others', () => {
    const listed = [
      { id: 1, uploadedAt: '2026-11-20 09:00:00', tags: ['a'] },
      { id: 2, uploadedAt: 'soon', tags: ['b'] },
    ];
    expect(newestBuild(listed, { tags: ['a'] })?.id).toBe(1);
    expect(newestBuild(listed, { except: [2] })?.id).toBe(1);
    const error = (() => {
      try {
        return newestBuild(listed);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnreadableUploadTimeError);
    expect(error).toMatchObject({ index: 1, buildId: 2, value: 'soon' });
    expect((error as Error).message).toBe(
      'build 2 has no upload time to order it by (`YYYY-MM-DD HH:MM:SS` (UTC) or ISO 8601)',
    );
  });

  it('of none is none', () => {
    expect(newestBuild([], { tags: ['main'] })).toBeUndefined();
  });
});

describe('builds.newest', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('lists the project builds once and picks the newest carrying the tags', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/projects/7/builds/', {
      body: {
        status: 'ok',
        builds: [
          { id: 70, uploadedAt: '2026-11-20 10:00:00', tags: ['pr-42'] },
          { id: 71, uploadedAt: '2026-11-20 11:00:00', tags: ['main'] },
        ],
      },
    });
    expect((await setup.client.mobile.builds.newest(7, { tags: ['pr-42'] }))?.id).toBe(70);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });
});
