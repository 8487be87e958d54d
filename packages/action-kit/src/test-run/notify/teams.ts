/**
 * A run's message for a Microsoft Teams workflow (Power Automate's "post to a channel when a
 * webhook request is received"): a message carrying one Adaptive Card 1.5, the current format,
 * not the retired Office 365 connector card. The card: a title, the counts, the run's facts, then
 * a list for each of new failures, fixed, flaky and still failing, each cut with "and N more", so
 * that the whole message stays well under Teams' limit of about 28 KB; links to the workflow run
 * and the report as actions.
 *
 * TextBlocks read a subset of Markdown: each character of it in a name (`*`, `_`, `[`, `]`, `(`,
 * `)`, backtick, `#`, `>`, and the backslash itself) is backslash-escaped, as are `<` and `~`, so
 * that a name shows as it is and links only to where the card says. No HTML is sent.
 */
import { linkAddress } from '../../reporting/one-line.ts';
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

/** The message's size at most, in bytes of JSON: under Teams' ~28 KB with room for what a workflow adds. */
export const TEAMS_MAX_BYTES = 24_000;

/** Items a list shows at most: a chat message stays short to read. */
const LIST_ITEMS = 25;

export const ADAPTIVE_CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';

export interface TextBlock {
  type: 'TextBlock';
  text: string;
  wrap: true;
  size?: 'Large' | 'Medium';
  weight?: 'Bolder';
  color?: 'Attention' | 'Good';
  separator?: true;
  spacing?: 'Medium';
}

export interface FactSet {
  type: 'FactSet';
  facts: { title: string; value: string }[];
}

export interface OpenUrlAction {
  type: 'Action.OpenUrl';
  title: string;
  url: string;
}

export interface AdaptiveCard {
  type: 'AdaptiveCard';
  version: '1.5';
  $schema: typeof ADAPTIVE_CARD_SCHEMA;
  body: (TextBlock | FactSet)[];
  actions?: OpenUrlAction[];
}

export interface TeamsMessage {
  type: 'message';
  attachments: [
    { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard },
  ];
}

/**
 * Characters that start or end markup within a line. Brackets are escaped, so `](x)` opens no
 * link: parentheses and `#` (a heading only at a line's start, where no name is) stay as they
 * are, since a renderer that ignores escapes would show every backslash.
 */
const MARKDOWN = /[\\*_[\]`><~]/g;

/** A text as a TextBlock shows it verbatim: Markdown's characters backslash-escaped. */
export function teamsEscape(text: string): string {
  return text.replace(MARKDOWN, (char) => `\\${char}`);
}

/** A Markdown link, for an `http(s)` address only (the text alone otherwise); the text is escaped. */
export function teamsLink(href: string | undefined, text: string): string {
  const label = teamsEscape(text);
  if (href === undefined || !/^https?:\/\//i.test(href)) return label;
  return `[${label}](${linkAddress(href, '()<>[]`\\ ')})`;
}

function itemLine(item: MessageItem): string {
  const links = itemLinks(item).map((link) => teamsLink(link.url, link.text));
  return `- ${teamsEscape(item.name)}${links.length > 0 ? ` · ${links.join(' · ')}` : ''}`;
}

function textBlock(text: string, style: Omit<TextBlock, 'type' | 'text' | 'wrap'> = {}): TextBlock {
  return { type: 'TextBlock', text, wrap: true, ...style };
}

/** The bytes a value takes in the message's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function facts(message: RunMessage): FactSet | undefined {
  const compared = comparedSentence(message);
  const list = [
    ...(message.repository !== undefined ? [{ title: 'Repository', value: message.repository }] : []),
    ...(message.branch !== undefined ? [{ title: 'Branch', value: message.branch }] : []),
    ...(message.commit !== undefined ? [{ title: 'Commit', value: message.commit.slice(0, 12) }] : []),
    { title: 'History', value: compared },
  ];
  return {
    type: 'FactSet',
    facts: list.map((fact) => ({ title: fact.title, value: teamsEscape(fact.value) })),
  };
}

function message(card: AdaptiveCard): TeamsMessage {
  return {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  };
}

/** The message of a run for a Teams workflow's address. */
export function teamsMessage(runMessage: RunMessage): TeamsMessage {
  const failed = runVerdict(runMessage) === 'failed';
  const actions: OpenUrlAction[] = [
    ...(runMessage.run.url !== undefined
      ? [{ type: 'Action.OpenUrl' as const, title: 'Workflow run', url: runMessage.run.url }]
      : []),
    ...(runMessage.reportUrl !== undefined
      ? [{ type: 'Action.OpenUrl' as const, title: 'Report', url: runMessage.reportUrl }]
      : []),
  ];
  const card: AdaptiveCard = {
    type: 'AdaptiveCard',
    version: '1.5',
    $schema: ADAPTIVE_CARD_SCHEMA,
    body: [
      textBlock(teamsEscape(`Tests ${failed ? 'failed' : 'passed'}: ${runTitle(runMessage)}`), {
        size: 'Large',
        weight: 'Bolder',
        color: failed ? 'Attention' : 'Good',
      }),
      textBlock(teamsEscape(countsSentence(runMessage))),
    ],
    ...(actions.length > 0 ? { actions } : {}),
  };
  const factSet = facts(runMessage);
  // The facts are short (names of at most 200 characters), but go first if the card is over anyway.
  if (
    factSet !== undefined &&
    jsonBytes(message({ ...card, body: [...card.body, factSet] })) < TEAMS_MAX_BYTES / 2
  ) {
    card.body.push(factSet);
  }
  const sections = SECTION_CLASSES.filter((name) => runMessage.items[name].length > 0);
  for (const [at, name] of sections.entries()) {
    const items = runMessage.items[name];
    const heading = textBlock(`${CLASS_TITLES[name]} (${items.length})`, {
      weight: 'Bolder',
      separator: true,
      spacing: 'Medium',
    });
    card.body.push(heading);
    // What is left is shared among this list and the ones after it.
    const left = TEAMS_MAX_BYTES - jsonBytes(message(card)) - (sections.length - at - 1) * 200;
    const share = Math.floor(left / (sections.length - at));
    const list = cutLines(items.map(itemLine), {
      // The list's own block: its JSON besides the text, and a comma.
      max: share - jsonBytes(textBlock('')) - 1,
      size: jsonBytes,
      more: (n) => `and ${n} more`,
      maxLines: LIST_ITEMS,
    });
    card.body.push(textBlock(list));
  }
  return message(card);
}
