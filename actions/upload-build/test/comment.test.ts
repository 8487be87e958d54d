/** The pull-request comment of an upload: the app, its version, and where to install it. */
import { describe, expect, it } from 'vitest';
import { uploadComment } from '../src/comment.ts';
import type { UploadReport } from '../src/report.ts';

function report(outputs: Partial<UploadReport['outputs']> = {}): UploadReport {
  return {
    outputs: {
      'build-id': '77',
      'project-id': '12',
      'build-url': 'https://mobile.saucelabs.com/projects/12/builds/77',
      'download-page-url': 'https://mobile.saucelabs.com/download/abc',
      'landing-page-url': 'https://mobile.saucelabs.com/landing/12',
      'app-name': 'Demo Shop',
      'app-version': '1.4.2',
      ...outputs,
    },
    sizeBytes: 2048,
    platform: 'android',
    inviteUrl: 'https://mobile.saucelabs.com/projects/12/builds/77/invite-testers',
    groups: [],
    tags: [],
    metadata: {},
  };
}

describe('the upload comment', () => {
  it('names the app and version, and links the install, landing, build and invite pages', () => {
    expect(uploadComment(report())).toEqual({
      action: 'upload-build',
      identity: { project: '12' },
      body: [
        '### 📦 Demo Shop 1.4.2 uploaded to Sauce Labs',
        '| App | Version | Platform | Build id |\n| --- | --- | --- | --- |\n| Demo Shop | 1.4.2 | android | 77 |',
        '**[Install (download page)](https://mobile.saucelabs.com/download/abc)** · [Landing page](https://mobile.saucelabs.com/landing/12) · [Build](https://mobile.saucelabs.com/projects/12/builds/77) · [Invite testers](https://mobile.saucelabs.com/projects/12/builds/77/invite-testers)',
      ].join('\n\n'),
    });
  });

  it('escapes the app name and leaves out links the service did not give', () => {
    const { body } = uploadComment(
      report({ 'app-name': 'Shop | <beta> `x`', 'download-page-url': '', 'landing-page-url': '' }),
    );
    expect(body.split('\n')[0]).toBe('### 📦 Shop \\| &lt;beta&gt; \\`x\\` 1.4.2 uploaded to Sauce Labs');
    expect(body).toContain('| Shop \\| &lt;beta&gt; \\`x\\` | 1.4.2 | android | 77 |');
    expect(body).not.toContain('Install');
    expect(body).not.toContain('Landing page');
    expect(body.split('\n').at(-1)).toMatch(/^\[Build\]\(/);
  });

  it('keeps one comment per project: another app has another identity', () => {
    expect(uploadComment(report({ 'project-id': '13' })).identity).toEqual({ project: '13' });
  });
});
