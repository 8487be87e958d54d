import { describe, expect, it } from 'vitest';
import {
  AUTOMATION_REGIONS,
  automationBaseUrl,
  isAutomationRegion,
  isMobileRegion,
  jobDashboardUrl,
  mobileBaseUrls,
} from '../../src/index.ts';

describe('regions', () => {
  it('maps each automation region to its API host', () => {
    expect(AUTOMATION_REGIONS.map((region) => automationBaseUrl(region))).toEqual([
      'https://api.us-west-1.saucelabs.com',
      'https://api.us-east-4.saucelabs.com',
      'https://api.eu-central-1.saucelabs.com',
      'https://api.asia-south-2.saucelabs.com',
    ]);
    expect(automationBaseUrl()).toBe('https://api.us-west-1.saucelabs.com');
  });

  it('maps each mobile distribution region to its REST and upload hosts', () => {
    expect(mobileBaseUrls()).toEqual({
      rest: 'https://mobile.saucelabs.com',
      upload: 'https://mobile.saucelabs.com',
    });
    expect(mobileBaseUrls('eu-central-1')).toEqual({
      rest: 'https://mobile.eu-central-1.saucelabs.com',
      upload: 'https://mobile.eu-central-1.saucelabs.com',
    });
    expect(mobileBaseUrls('legacy')).toEqual({
      rest: 'https://api.testfairy.com',
      upload: 'https://app.testfairy.com',
    });
  });

  it('tells region names apart', () => {
    expect(isAutomationRegion('us-east-4')).toBe(true);
    expect(isAutomationRegion('us-east-1')).toBe(false);
    expect(isMobileRegion('us-east-1')).toBe(true);
    expect(isMobileRegion('us-west-1')).toBe(false);
  });
});

describe('jobDashboardUrl', () => {
  it('links to the dashboard of each region', () => {
    expect(jobDashboardUrl('abc')).toBe('https://app.saucelabs.com/tests/abc');
    expect(jobDashboardUrl('abc', { region: 'us-west-1' })).toBe('https://app.saucelabs.com/tests/abc');
    expect(jobDashboardUrl('abc', { region: 'us-east-4' })).toBe(
      'https://app.us-east-4.saucelabs.com/tests/abc',
    );
    expect(jobDashboardUrl('abc', { region: 'eu-central-1' })).toBe(
      'https://app.eu-central-1.saucelabs.com/tests/abc',
    );
    // No public dashboard host is known for asia-south-2: the main dashboard is the fallback.
    expect(jobDashboardUrl('abc', { region: 'asia-south-2' })).toBe('https://app.saucelabs.com/tests/abc');
  });

  it('links below an explicit base address, without credentials, encoding the id', () => {
    expect(jobDashboardUrl('a/b c', { baseUrl: 'http://127.0.0.1:4545/' })).toBe(
      'http://127.0.0.1:4545/tests/a%2Fb%20c',
    );
    expect(jobDashboardUrl('j', { region: 'eu-central-1', baseUrl: 'https://gw.example.com/sauce' })).toBe(
      'https://gw.example.com/sauce/tests/j',
    );
    expect(jobDashboardUrl('j', { baseUrl: 'https://u:k@gw.example.com' })).toBe(
      'https://gw.example.com/tests/j',
    );
  });
});
