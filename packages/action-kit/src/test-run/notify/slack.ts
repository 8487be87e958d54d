/**
 * A run's message as a Slack incoming webhook's payload: Block Kit blocks within Slack's published
 * limits (at most 50 blocks, a section's text at most 3,000 characters, a header's at most 150),
 * and a `text` fallback for notifications. A header, a section of counts and links, then a section
 * for each of new failures, fixed, flaky and still failing, each cut with "and N more".
 *
 * Names are escaped for Slack's mrkdwn: `&`, `<` and `>` become entities, so that no `<!channel>`,
 * `<@U123>` or `<url|link>` can be made of them, and they stand in inline code (a backtick in a
 * name made a look-alike), so that `*`, `_` and `~` show as they are. A link is `<url|text>` with
 * our own words as its text, for `http(s)` addresses only.
 */
import { linkAddress, shorten } from '../../reporting/one-line.ts';
import {
  CLASS_TITLES,
  comparedSentence,
  countsSentence,
  cutLines,
  itemLinks,
  runTitle,
  runVerdict,
  SECTION_CLASSES,
  type MessageItem,
  type RunMessage,
} from './message.ts';

/** Slack's limits for a message's blocks. */
export const SLACK_LIMITS = { blocks: 50, sectionText: 3000, headerText: 150 } as const;

/** Items a section shows at most: a chat message stays short to read. */
const SECTION_ITEMS = 20;

export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
}

export type SlackBlock =
  | { type: 'header'; text: SlackText & { type: 'plain_text' } }
  | { type: 'section'; text: SlackText & { type: 'mrkdwn' } }
  | { type: 'divider' };

export interface SlackPayload {
  text: string;
  blocks: SlackBlock[];
  unfurl_links: false;
  unfurl_media: false;
}

/** `&`, `<` and `>` as entities: what Slack asks of every text it parses. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A value shown verbatim: escaped, in inline code. */
export function slackCode(text: string): string {
  return `\`${slackEscape(text.replace(/`/g, 'ˋ'))}\``;
}

/** A link `<url|text>`, for an `http(s)` address only (the text alone otherwise). */
export function slackLink(href: string | undefined, text: string): string {
  const label = slackEscape(text.replace(/\|/g, '¦'));
  if (href === undefined || !/^https?:\/\//i.test(href)) return label;
  return `<${slackEscape(linkAddress(href, '<>|'))}|${label}>`;
}

/** `text` shortened so that escaped it is at most `max` characters. */
function escapedWithin(text: string, max: number): string {
  let length = max;
  let escaped = slackEscape(shorten(text, length));
  while (escaped.length > max && length > 1) {
    length -= Math.max(1, escaped.length - max);
    escaped = slackEscape(shorten(text, length));
  }
  return escaped;
}

function itemLine(item: MessageItem): string {
  const links = itemLinks(item).map((link) => slackLink(link.url, link.text));
  return `• ${slackCode(item.name)}${links.length > 0 ? ` · ${links.join(' · ')}` : ''}`;
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

const size = (text: string): number => text.length;

function countsText(message: RunMessage): string {
  const compared = comparedSentence(message);
  const where = [
    ...(message.repository !== undefined ? [slackCode(message.repository)] : []),
    ...(message.branch !== undefined ? [`branch ${slackCode(message.branch)}`] : []),
    ...(message.commit !== undefined ? [`commit ${slackCode(message.commit.slice(0, 12))}`] : []),
  ];
  const links = [
    ...(message.run.url !== undefined ? [slackLink(message.run.url, 'Workflow run')] : []),
    ...(message.reportUrl !== undefined ? [slackLink(message.reportUrl, 'Report')] : []),
  ];
  const lines = [
    `*${slackEscape(countsSentence(message))}*`,
    slackEscape(compared),
    ...(where.length > 0 ? [where.join(' · ')] : []),
    ...(links.length > 0 ? [links.join(' · ')] : []),
  ];
  return cutLines(lines, { max: SLACK_LIMITS.sectionText, size, more: () => '…' });
}

/** The payload of a run's message for a Slack incoming webhook. */
export function slackPayload(message: RunMessage): SlackPayload {
  const verdict = runVerdict(message);
  const title = `${verdict === 'failed' ? '❌' : '✅'} ${runTitle(message)}`;
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: escapedWithin(title, SLACK_LIMITS.headerText) } },
    section(countsText(message)),
  ];
  for (const name of SECTION_CLASSES) {
    const items = message.items[name];
    if (items.length === 0) continue;
    const heading = `*${CLASS_TITLES[name]} (${items.length})*`;
    const list = cutLines(items.map(itemLine), {
      max: SLACK_LIMITS.sectionText - heading.length - 1,
      size,
      more: (left) => `and ${left} more`,
      maxLines: SECTION_ITEMS,
    });
    blocks.push({ type: 'divider' }, section(`${heading}\n${list}`));
  }
  return {
    text: escapedWithin(
      `Tests ${verdict}: ${runTitle(message)}: ${countsSentence(message)}`,
      SLACK_LIMITS.sectionText,
    ),
    blocks: blocks.slice(0, SLACK_LIMITS.blocks),
    unfurl_links: false,
    unfurl_media: false,
  };
}
