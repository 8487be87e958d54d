/** The Slack payload: Block Kit's limits at 2,000 cases, names that cannot mention, link or format. */
import { describe, expect, it } from 'vitest';
import {
  SLACK_LIMITS,
  slackEscape,
  slackLink,
  slackPayload,
  type SlackPayload,
} from '../../../src/test-run/notify/slack.ts';
import { hostileMessage, nightMessage } from './fixtures.ts';

function texts(payload: SlackPayload): string[] {
  return payload.blocks.flatMap((block) => (block.type === 'divider' ? [] : [block.text.text]));
}

function expectWithinLimits(payload: SlackPayload): void {
  expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
  for (const block of payload.blocks) {
    if (block.type === 'header') {
      expect(block.text.type).toBe('plain_text');
      expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    } else if (block.type === 'section') {
      expect(block.text.type).toBe('mrkdwn');
      expect(block.text.text.length).toBeGreaterThan(0);
      expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    } else {
      expect(block.type).toBe('divider');
    }
  }
  expect(payload.text.length).toBeGreaterThan(0);
  expect(payload.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
}

/** What is left of a text once our own links `<http(s)://…|…>` are taken out. */
const withoutLinks = (text: string): string => text.replace(/<https?:\/\/[^|<>\s]+\|[^|<>]*>/g, '');

describe('the Slack payload', () => {
  it('keeps every Block Kit limit at 2,000 cases, each section cut with "and N more"', () => {
    const payload = slackPayload(nightMessage(2000));
    expectWithinLimits(payload);
    const [header, counts, ...rest] = payload.blocks;
    expect(header?.type).toBe('header');
    expect(counts?.type === 'section' && counts.text.text).toContain(
      '*900 of 2000 failed: 500 new, 500 fixed, 200 flaky, 400 still failing, 0 quarantined*',
    );
    const sections = rest.filter((block) => block.type === 'section').map((block) => block.text.text);
    expect(sections.map((text) => text.split('\n')[0])).toEqual([
      '*New failures (500)*',
      '*Fixed (500)*',
      '*Flaky (200)*',
      '*Still failing (400)*',
    ]);
    for (const text of sections) expect(text.split('\n').at(-1)).toMatch(/^and \d+ more$/);
    expect(JSON.stringify(payload).length).toBeLessThan(40_000);
  });

  it('keeps them with the longest names full of characters to escape', () => {
    const payload = slackPayload(nightMessage(2000, (at) => `${'&<>'.repeat(70)}${at}`));
    expectWithinLimits(payload);
    for (const text of texts(payload)) expect(withoutLinks(text)).not.toMatch(/[<>]/);
  });

  it('shows hostile names as plain text: no mention, link, formatting or line of their own', () => {
    const payload = slackPayload(hostileMessage());
    expectWithinLimits(payload);
    const all = [...texts(payload), payload.text];
    for (const text of all) {
      expect(withoutLinks(text)).not.toMatch(/[<>]/);
      expect(text).not.toMatch(/^::/m);
    }
    const joined = all.join('\n');
    expect(joined).toContain('`&lt;!channel&gt;`');
    expect(joined).toContain('`&lt;@U1&gt;`');
    expect(joined).toContain('`*bold*`');
    expect(joined).toContain('`[x](http://evil)`');
    expect(joined).toContain('`first second`');
    expect(joined).toContain('`::error::x`');
    expect(joined).toContain('`ˋcodeˋ _it_ ~strike~ # heading &gt; quote &amp; &lt;b&gt;html&lt;/b&gt;`');
    // Each item is one line of its section: a bullet, its name in code, its links.
    const lines = texts(payload)
      .slice(2)
      .flatMap((text) => text.split('\n').slice(1));
    for (const line of lines)
      expect(line).toMatch(/^(• `[^`]*`( · <https:\/\/[^|<>]+\|(job|last passed)>)*|and \d+ more)$/);
  });

  it('makes links of http(s) addresses only, their text escaped', () => {
    expect(slackEscape('a & <b>')).toBe('a &amp; &lt;b&gt;');
    expect(slackLink('https://x.test/?a=1&b=<2>|3', 'a|<b>')).toBe(
      '<https://x.test/?a=1&amp;b=%3C2%3E%7C3|a¦&lt;b&gt;>',
    );
    expect(slackLink('javascript:alert(1)', 'job')).toBe('job');
  });
});
