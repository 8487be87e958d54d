/**
 * What changed since the earlier runs, as the summary, the comment and the check run lead with
 * it: a line of counts by class, then new failures (with the last run they passed in), fixed
 * cases, flaky ones, still failing ones (folded) and the quarantine. Names from the service are
 * escaped for each format; each section is a list the budgets cut, failures kept first.
 */
import { markdownLink, markdownSentence, markdownText } from '../../reporting/markdown.ts';
import type { Block, ItemList, ItemRank } from '../../reporting/report-text.ts';
import { linkHtml, safeSentence, safeText } from '../../reporting/summary.ts';
import type { ClassifiedItem, HistoryClass } from './classes.ts';
import type { Comparison } from './comparison.ts';

/** The outputs of the classes (`flaky` is the tally's, as before). */
export type HistoryOutputs = {
  'new-failures': number;
  'still-failing': number;
  fixed: number;
  quarantined: number;
};

export function historyOutputs(comparison: Comparison | undefined): HistoryOutputs {
  const counts = comparison?.classification.counts;
  return {
    'new-failures': counts?.new ?? 0,
    'still-failing': counts?.['still-failing'] ?? 0,
    fixed: counts?.fixed ?? 0,
    quarantined: counts?.quarantined ?? 0,
  };
}

/** The sections in the order they lead: what changed first; still failing folded. */
const SECTIONS: readonly { class: HistoryClass; title: string; rank: ItemRank; folded?: boolean }[] = [
  { class: 'new', title: 'New failures', rank: 'failed' },
  { class: 'fixed', title: 'Fixed', rank: 'flaky' },
  { class: 'flaky', title: 'Flaky', rank: 'flaky' },
  { class: 'still-failing', title: 'Still failing', rank: 'other', folded: true },
  { class: 'quarantined', title: 'Quarantined', rank: 'other' },
];

/** The section of the items quarantined with `mode: skip`, which no step started. */
const SKIPPED_TITLE = 'Quarantined, not started (mode: skip)';

/** Items a comment's section shows at most: a comment stays short to read. */
const COMMENT_ITEMS = 20;
/** Items a summary's section shows at most, ahead of the jobs' table. */
const SUMMARY_ITEMS = 50;

/** The line of counts, and why the comparison is off or short. */
export function countsLine(comparison: Comparison): string {
  if (comparison.off !== undefined) return `History: ${comparison.off}.`;
  const { counts } = comparison.classification;
  const runs = comparison.compared.length;
  const against =
    runs === 0
      ? `No earlier run on ${comparison.series?.defaultBranch} to compare with`
      : `Against ${runs} earlier run(s) on ${comparison.series?.defaultBranch}`;
  const line = `${against}: ${counts.new} new failure(s), ${counts['still-failing']} still failing, ${counts.fixed} fixed, ${counts.flaky} flaky, ${counts.quarantined} quarantined.`;
  return comparison.shortBy !== undefined
    ? `${line} Fewer runs were compared than asked: ${comparison.shortBy}.`
    : line;
}

/** What a line says of an item besides its name, in plain words. */
function itemFacts(item: ClassifiedItem): { text: string; link?: { text: string; href: string } } {
  const facts: string[] = [];
  if (item.class === 'quarantined' && item.quarantined) {
    facts.push(`${item.outcome === 'failed' ? 'failed' : 'passed'}; quarantined: ${item.quarantined.reason}`);
    if (item.readyToLeave) facts.push('passed in each of the last 5 runs: ready to leave the quarantine');
  } else if (item.neverRun) {
    facts.push('never run before');
  } else {
    facts.push(`failed in ${item.failedRuns} of ${item.comparedRuns} compared run(s)`);
  }
  const passed = item.class === 'new' ? item.lastPassed : undefined;
  if (passed === undefined) return { text: facts.join('; ') };
  const run = passed.number !== undefined ? `run #${passed.number}` : (passed.builds[0] ?? 'an earlier run');
  // Without an address the run is named as text: the link helpers show only http(s) ones as links.
  return { text: `${facts.join('; ')}; last passed in`, link: { text: run, href: passed.url ?? '' } };
}

function htmlItem(item: ClassifiedItem): string {
  const { text, link } = itemFacts(item);
  const tail = link === undefined ? '' : ` ${linkHtml(link)}`;
  return `<li><strong>${safeText(item.name)}</strong>: ${safeSentence(text)}${tail}</li>\n`;
}

function markdownItem(item: ClassifiedItem): string {
  const { text, link } = itemFacts(item);
  const tail = link === undefined ? '' : ` ${markdownLink(link.text, link.href)}`;
  return `- **${markdownText(item.name)}**: ${markdownSentence(text)}${tail}\n`;
}

function itemsOf(comparison: Comparison, name: HistoryClass): ClassifiedItem[] {
  return comparison.classification.items.filter((item) => item.class === name);
}

/** The summary's blocks (HTML): the counts, then a list per class that has items. */
export function historyBlocks(comparison: Comparison): Block[] {
  const blocks: Block[] = [`<p>${safeSentence(countsLine(comparison))}</p>`];
  for (const section of SECTIONS) {
    const items = itemsOf(comparison, section.class);
    if (items.length === 0) continue;
    const title = `${section.title} (${items.length})`;
    const list: ItemList = {
      open: section.folded
        ? `<details><summary><strong>${title}</strong></summary>\n<ul>\n`
        : `<h4>${title}</h4>\n<ul>\n`,
      items: items.map((item) => ({ text: htmlItem(item), rank: section.rank })),
      close: section.folded ? '</ul>\n</details>' : '</ul>',
      noun: 'cases',
      fullList: 'every case and its class is in the results file',
      // The jobs' table below lists every failure in full: these lead, and stay short.
      max: SUMMARY_ITEMS,
    };
    blocks.push(list);
  }
  const skipped = comparison.skipped ?? [];
  if (skipped.length > 0) {
    blocks.push({
      open: `<h4>${SKIPPED_TITLE} (${skipped.length})</h4>\n<ul>\n`,
      items: skipped.map((item) => ({
        text: `<li><strong>${safeText(item.name)}</strong>: ${safeSentence(item.reason)}</li>\n`,
        rank: 'other' as const,
      })),
      close: '</ul>',
      noun: 'cases',
      fullList: 'every skipped case is in the results file',
      max: SUMMARY_ITEMS,
    });
  }
  return blocks;
}

/** The comment's and the check run's section (Markdown), each class shortened to a few lines. */
export function historyMarkdown(comparison: Comparison): string {
  const parts = [markdownSentence(countsLine(comparison))];
  for (const section of SECTIONS) {
    const items = itemsOf(comparison, section.class);
    if (items.length === 0) continue;
    const shown = items.slice(0, COMMENT_ITEMS).map(markdownItem).join('');
    const more = items.length > COMMENT_ITEMS ? `- and ${items.length - COMMENT_ITEMS} more\n` : '';
    const title = `${section.title} (${items.length})`;
    parts.push(
      section.folded
        ? `<details><summary><b>${title}</b></summary>\n\n${shown}${more}\n</details>`
        : `**${title}**\n\n${shown}${more}`.trimEnd(),
    );
  }
  const skipped = comparison.skipped ?? [];
  if (skipped.length > 0) {
    const shown = skipped
      .slice(0, COMMENT_ITEMS)
      .map((item) => `- **${markdownText(item.name)}**: ${markdownSentence(item.reason)}\n`)
      .join('');
    const more = skipped.length > COMMENT_ITEMS ? `- and ${skipped.length - COMMENT_ITEMS} more\n` : '';
    parts.push(`**${SKIPPED_TITLE} (${skipped.length})**\n\n${shown}${more}`.trimEnd());
  }
  return parts.join('\n\n');
}

/** Each item's class, for the results file. */
export function historyData(comparison: Comparison): Record<string, unknown> {
  return {
    ...(comparison.off !== undefined ? { off: comparison.off } : {}),
    ...(comparison.series !== undefined ? { defaultBranch: comparison.series.defaultBranch } : {}),
    compared: comparison.compared.map((run) => ({ ...run.run, anchor: run.anchor, builds: run.builds })),
    ...(comparison.shortBy !== undefined ? { shortBy: comparison.shortBy } : {}),
    counts: comparison.classification.counts,
    ...(comparison.skipped?.length ? { skipped: comparison.skipped } : {}),
    items: comparison.classification.items.map((item) => ({
      name: item.name,
      class: item.class,
      outcome: item.outcome,
      comparedRuns: item.comparedRuns,
      failedRuns: item.failedRuns,
      neverRun: item.neverRun,
      ...(item.quarantined !== undefined ? { quarantine: item.quarantined } : {}),
      ...(item.readyToLeave ? { readyToLeave: true } : {}),
      ...(item.lastPassed !== undefined ? { lastPassed: item.lastPassed } : {}),
    })),
  };
}
