/**
 * What the upload sends, input by input: `uploadRequest` then the client's form fields, as rows
 * (the step's inputs and what was prepared, and the text fields of the multipart body).
 */
import { mobileUploadFields, type MobileUploadPlatform } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import type { UploadInputs } from '../src/inputs.ts';
import { uploadRequest, type PreparedUpload } from '../src/request.ts';
import { inputs } from './helpers.ts';

const nothing: PreparedUpload = { groups: [], labels: { tags: [], metadata: {} }, notifyLater: false };

describe('the upload’s form fields', () => {
  const rows: [string, Partial<UploadInputs>, Partial<PreparedUpload>, [string, string][]][] = [
    [
      'the defaults: the switches off, nothing else',
      {},
      {},
      [
        ['notify', 'off'],
        ['auto_update', 'off'],
        ['upload_to_vendor', 'off'],
      ],
    ],
    ['app-name', { appName: 'Demo Shop' }, {}, [['app_name', 'Demo Shop']]],
    ['groups, as the account names them', {}, { groups: ['qa', 'beta'] }, [['groups', 'qa,beta']]],
    ['notify', { notify: true }, {}, [['notify', 'on']]],
    [
      'notify, when the invitation sends the emails after the notes: as the defaults',
      { notify: true },
      { notifyLater: true },
      [
        ['notify', 'off'],
        ['auto_update', 'off'],
        ['upload_to_vendor', 'off'],
      ],
    ],
    ['release notes', {}, { releaseNotes: 'Fixes\nthe cart' }, [['release_notes', 'Fixes\nthe cart']]],
    ['auto-update', { autoUpdate: true }, {}, [['auto_update', 'on']]],
    [
      'tags with the CI system’s',
      {},
      { labels: { tags: ['main', 'pr-42'], metadata: {} } },
      [['tags', 'main,pr-42']],
    ],
    ['folder-name', { folderName: 'Releases/2026' }, {}, [['folder_name', 'Releases/2026']]],
    ['landing-page-mode', { landingPageMode: 'closed' }, {}, [['landing_page_mode', 'closed']]],
    ['upload-to-vendor', { uploadToVendor: true }, {}, [['upload_to_vendor', 'on']]],
    ['platform', { platform: 'windows' satisfies MobileUploadPlatform }, {}, [['platform', 'windows']]],
    [
      'metadata, one field a key',
      {},
      { labels: { tags: [], metadata: { commit: 'abc1234', branch: 'main' } } },
      [
        ['metadata.commit', 'abc1234'],
        ['metadata.branch', 'main'],
      ],
    ],
  ];
  it.each(rows)('%s', (_name, given, prepared, fields) => {
    const sent = mobileUploadFields(uploadRequest(inputs(given), { ...nothing, ...prepared }), undefined);
    const defaults = mobileUploadFields(uploadRequest(inputs(), nothing), undefined);
    // Each row: the fields that differ from the defaults', and the defaults' own row.
    const changed = sent.filter(([name, value]) => !defaults.some(([n, v]) => n === name && v === value));
    expect(changed.length > 0 ? changed : sent).toEqual(fields);
  });

  it('sends the symbols file as a file of its own, not a text field', () => {
    const request = uploadRequest(inputs(), { ...nothing, symbolsFile: '/w/mapping.txt' });
    expect(request.symbolsFile).toBe('/w/mapping.txt');
    expect(mobileUploadFields(request, undefined).some(([name]) => name.includes('symbol'))).toBe(false);
  });
});
