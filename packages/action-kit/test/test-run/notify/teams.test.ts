/** The Teams message: a valid Adaptive Card under Teams' size, names shown as plain text. */
import { createRequire } from 'node:module';
import type * as AdaptiveCards from 'adaptivecards';
import { describe, expect, it } from 'vitest';
import {
  jsonBytes,
  TEAMS_MAX_BYTES,
  teamsEscape,
  teamsLink,
  teamsMessage,
  type TeamsMessage,
  type TextBlock,
} from '../../../src/test-run/notify/teams.ts';
import { hostileMessage, nightMessage } from './fixtures.ts';

// The package's ES modules import without file extensions, which Node does not resolve: its bundle does.
const cards = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js') as typeof AdaptiveCards;

/** What the Adaptive Cards library says of a card: parse events and validation failures. */
function cardProblems(message: TeamsMessage): string[] {
  const card = new cards.AdaptiveCard();
  const context = new cards.SerializationContext();
  card.parse(message.attachments[0].content, context);
  const events = Array.from({ length: context.eventCount }, (_, at) => context.getEventAt(at).message);
  const failures = card.validateProperties().validationEvents.map((event) => event.message);
  return [...events, ...failures];
}

function texts(message: TeamsMessage): string[] {
  return message.attachments[0].content.body.flatMap((element) =>
    element.type === 'TextBlock' ? [element.text] : element.facts.flatMap((fact) => [fact.title, fact.value]),
  );
}

describe('the Teams message', () => {
  it('is a Workflows message carrying an Adaptive Card 1.5 that the card library parses without a problem', () => {
    const message = teamsMessage(nightMessage(40));
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = message.attachments[0].content;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.5' });
    expect(card.$schema).toBe('http://adaptivecards.io/schemas/adaptive-card.json');
    expect(cardProblems(message)).toEqual([]);
    expect(card.actions?.map((action) => action.title)).toEqual(['Workflow run', 'Report']);
    // The check finds what is wrong: an element of no known type.
    const broken = structuredClone(message);
    (broken.attachments[0].content.body as unknown[]).push({ type: 'Marquee', text: 'x' });
    expect(cardProblems(broken)).not.toEqual([]);
  });

  it('stays under Teams size at 2,000 cases, each list cut with "and N more"', () => {
    for (const names of [undefined, (at: number) => `${'*_[]'.repeat(50)}${at}`]) {
      const message = teamsMessage(nightMessage(2000, names));
      expect(jsonBytes(message)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
      expect(cardProblems(message)).toEqual([]);
      const lists = message.attachments[0].content.body
        .filter((element): element is TextBlock => element.type === 'TextBlock')
        .filter((block) => block.text.startsWith('- '));
      expect(lists).toHaveLength(4);
      for (const list of lists) expect(list.text.split('\n').at(-1)).toMatch(/^and \d+ more$/);
    }
  });

  it('escapes Markdown in hostile names so that they show as plain text', () => {
    const message = teamsMessage(hostileMessage());
    expect(cardProblems(message)).toEqual([]);
    const all = texts(message).join('\n');
    expect(all).toContain('\\*bold\\*');
    expect(all).toContain('\\[x\\](http://evil)');
    expect(all).toContain('\\](http://evil)');
    expect(all).toContain('first second');
    expect(all).toContain('\\`code\\` \\_it\\_ \\~strike\\~ # heading \\> quote & \\<b\\>html\\</b\\>');
    expect(all).not.toMatch(/^::/m);
    // The only links are the card's own: unescaped brackets open nothing else.
    const links = [...all.matchAll(/(?<!\\)\[([^\]]*)(?<!\\)\]\(/g)].map((match) => match[1]);
    expect(new Set(links)).toEqual(new Set(['job', 'last passed']));
  });

  it('escapes each character of Markdown and links http(s) addresses only', () => {
    expect(teamsEscape('*_[]()`#>\\<~')).toBe('\\*\\_\\[\\]()\\`#\\>\\\\\\<\\~');
    expect(teamsLink('https://x.test/a(b)', '[job]')).toBe('[\\[job\\]](https://x.test/a%28b%29)');
    expect(teamsLink('javascript:alert(1)', 'job')).toBe('job');
  });
});
