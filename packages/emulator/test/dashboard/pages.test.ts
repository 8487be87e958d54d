import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server.ts';
import { call, sampleApk, start, upload, uploadApk, type Harness } from '../mobile/helpers.ts';
import { sleep } from '../support/emulator.ts';

// The pages are read by a browser: no credentials are sent in any of these requests.
const get = async (h: Harness, path: string) => {
  const response = await fetch(`${h.url}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
};

const HOSTILE = '<script>alert("x")</script> & \'q\'';
const ESCAPED = '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;q&#39;';

let h: Harness;
beforeEach(async () => {
  // Jobs last 40 ms, so a test sees one end.
  h = await start(undefined, { jobDurationMs: 40 });
});
afterEach(async () => {
  await h.close();
});

describe('dashboard pages', () => {
  it('shows a job at the link the actions write, with its assets once it ends', async () => {
    const ctx = h.emulator.context;
    const { id } = ctx.automation.jobs.create({
      name: HOSTILE,
      build: 'nightly 42',
      browser: 'firefox',
      browserVersion: '128.0',
      os: 'Windows 11',
      passes: false,
    });
    await sleep(80);
    const page = await get(h, `/tests/${id}`);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.text).toContain(ESCAPED);
    expect(page.text).not.toContain('<script>');
    for (const shown of [id, 'nightly 42', 'complete', 'failed', 'firefox 128.0', 'Windows 11']) {
      expect(page.text).toContain(shown);
    }
    expect(page.text).toMatch(/<th>Passed<\/th><td>no<\/td>/);
    expect(page.text).toMatch(/<th>Ended<\/th><td>\d{4}-\d\d-\d\dT/);

    const links = [...page.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
    expect(links).toEqual(
      expect.arrayContaining([`/tests/${id}/assets/log.json`, `/tests/${id}/assets/selenium-server.log`]),
    );
    const log = await get(h, `/tests/${id}/assets/selenium-server.log`);
    expect(log.status).toBe(200);
    expect(log.text).toContain('Assertion failed');
    const screenshot = links.find((href) => href.endsWith('.png'));
    expect((await get(h, screenshot!)).type).toBe('image/png');
  });

  it('shows a running job without end time or assets', async () => {
    const automation = h.emulator.context.automation;
    const { id } = automation.jobs.create({
      name: 'slow',
      build: '',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    });
    automation.jobs.get(id)!.durationMs = 60_000;
    const page = await get(h, `/tests/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<th>Passed<\/th><td>not set<\/td>/);
    expect(page.text).toMatch(/<th>Ended<\/th><td>—<\/td>/);
    expect(page.text).not.toContain('/assets/');
    expect((await get(h, `/tests/${id}/assets/log.json`)).status).toBe(404);
  });

  it('shows a build and its invited testers at build_url and invite_testers_url', async () => {
    const { projectId, buildId } = await uploadApk(h, 'com.example.shop', '2.3.4', {
      release_notes: HOSTILE,
    });
    const first = await get(h, `/projects/${projectId}/builds/${buildId}`);
    expect(first.status).toBe(200);
    expect(first.text).toContain('No tester has been invited');

    await call(h, 'POST', '/api/1/testers', {
      form: { email: 'a@example.com,b@example.com', group: 'dashboard-readers' },
    });
    const invited = await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/invites`, {
      form: { groups: 'dashboard-readers' },
    });
    expect(invited.body.status).toBe('ok');

    for (const path of [
      `/projects/${projectId}/builds/${buildId}`,
      `/projects/${projectId}/builds/${buildId}/invite-testers`,
    ]) {
      const page = await get(h, path);
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/^text\/html/);
      for (const shown of [
        'Demo App',
        '2.3.4',
        'Android',
        'com.example.shop',
        'a@example.com',
        'b@example.com',
      ]) {
        expect(page.text).toContain(shown);
      }
      expect(page.text).toContain('Testers invited (2)');
      expect(page.text).toContain(ESCAPED);
      expect(page.text).not.toContain('<script>');
    }
  });

  it('links from the upload result resolve to pages', async () => {
    // The upload answer's own links, followed as a browser would.
    const { body } = await upload(h, await sampleApk(h, 'com.example.links', '1.0.0'));
    expect(body.status).toBe('ok');
    for (const field of ['build_url', 'invite_testers_url']) {
      const response = await fetch(String(body[field]));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('com.example.links');
    }
  });

  it('answers an HTML 404 page for unknown jobs, builds and pages, and journals none of them', async () => {
    const { projectId, buildId } = await uploadApk(h);
    for (const path of [
      '/tests/0123456789abcdef0123456789abcdef',
      '/tests/%3Cb%3E',
      `/projects/${projectId}/builds/${buildId + 1}`,
      `/projects/${projectId + 1}/builds/${buildId}`,
      '/projects/x/builds/1',
      `/projects/${projectId}/builds/${buildId}/elsewhere`,
      '/tests/a/b/c',
    ]) {
      const page = await get(h, path);
      expect(page.status, path).toBe(404);
      expect(page.type).toMatch(/^text\/html/);
      expect(page.text).toContain('Not found');
      expect(page.text).not.toContain('<b>');
    }
    const journal = (await get(h, '/_emulator/requests')).text;
    expect(journal).not.toContain('/tests/');
    expect(journal).not.toContain(`/projects/${projectId}/builds`);
  });

  it('refuses clients that are not on loopback', async () => {
    const app = await buildApp(h.emulator.context);
    try {
      const { id } = h.emulator.context.automation.jobs.create({
        name: 'j',
        build: 'b',
        browser: 'chrome',
        os: 'Linux',
        passes: true,
      });
      const local = await app.inject({ url: `/tests/${id}`, remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
      const remote = await app.inject({ url: `/tests/${id}`, remoteAddress: '192.0.2.7' });
      expect(remote.statusCode).toBe(403);
      expect(remote.body).not.toContain(id);
    } finally {
      await app.close();
    }
  });
});
