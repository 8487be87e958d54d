/**
 * The step summary of a suite run: the totals and every job, the builds, what the shard ran and
 * what an earlier attempt of the workflow run had passed.
 */
import {
  linkHtml,
  safeText,
  shardText,
  SummaryBuilder,
  type RunBuild,
  type StructuredText,
} from '@sauce-actions/action-kit';
import { jobsSummaryText, type JobTally } from '@sauce-actions/action-kit/test-run/job-report';
import { buildsOf, type RerunSkipped, type ShardShare, type SuiteReport } from './report.ts';
import type { FoundSuite } from './start.ts';

/** As blocks, the jobs table's rows ranked: the host keeps failed and flaky jobs first within 1 MiB. */
export function suiteSummary(report: SuiteReport, tally: JobTally): StructuredText {
  const { shard } = report;
  const label = `${report.suite ? `Suite ${report.suite.name}` : 'Test cases'}${shard ? `, shard ${shardText(shard)}` : ''}`;
  const title =
    report.planned === 0
      ? `${label}: nothing to run`
      : `${label}: ${tally.passed} of ${tally.total} jobs passed`;
  const notes = [
    ...(shard ? [shardNote(report.suite, shard)] : []),
    ...(report.rerun ? [rerunNote(report.rerun, report.planned)] : []),
    ...(report.note !== undefined ? [report.note] : []),
  ];
  const builds = buildsOf(report);
  // One build is named under the title; several are listed, linked, after the table.
  const jobs = jobsSummaryText({
    title,
    ...(report.buildName !== '' && builds.length <= 1 ? { buildName: report.buildName } : {}),
    jobs: report.jobs,
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  });
  const summary = new SummaryBuilder().blocks(jobs);
  if (builds.length > 1) summary.raw(buildsHtml(builds));
  if (report.rerun && report.rerun.cases.length > 0) {
    summary.heading(`Passed in an earlier attempt, not run again (${report.rerun.cases.length})`, 3);
    summary.raw(earlierLinks(report.rerun));
  }
  return summary.toText();
}

/** Builds listed at most: the summary has a size limit, and the results file has them all. */
const MAX_BUILDS_LISTED = 50;

function buildsHtml(builds: readonly RunBuild[]): string {
  const items = builds
    .slice(0, MAX_BUILDS_LISTED)
    .map((build) => (build.url ? linkHtml({ text: build.name, href: build.url }) : safeText(build.name)));
  const more =
    builds.length > MAX_BUILDS_LISTED
      ? `, and ${builds.length - MAX_BUILDS_LISTED} more in the results file`
      : '';
  return `<p>Builds (${builds.length}: the service makes every build name unique, so each case run has its own): ${items.join(', ')}${more}.</p>`;
}

/** Cases skipped, at most this many listed with their links: the summary has a size limit. */
const MAX_SKIPPED_LISTED = 200;

/** What `rerun-failed` found of the earlier attempts, and what it left out. */
function rerunNote(rerun: RerunSkipped, planned: number): string {
  const builds = rerun.builds.map((build) => `"${build}"`).join(', ');
  const where = `build${rerun.builds.length === 1 ? '' : 's'} ${builds}`;
  const capped =
    rerun.incomplete !== undefined
      ? ` The search of the earlier results did not end: ${rerun.incomplete}; a case whose earlier result it did not read runs again.`
      : '';
  if (rerun.found === 0) {
    return `Attempt ${rerun.attempt} of the workflow run: no job of an earlier attempt was found in ${where} (nor with a suffix such as " - 1"), so every case runs.${capped}`;
  }
  const ran =
    planned === 0
      ? 'nothing had to run again'
      : `only the ${planned} that failed or did not finish there ran`;
  return `Attempt ${rerun.attempt} of the workflow run (\`rerun-failed\`): ${rerun.cases.length} case(s) passed in an earlier attempt (${where}) and were not run again; ${ran}.${capped}`;
}

/** Each skipped case with a link to its earlier passing job on every platform. */
function earlierLinks(rerun: RerunSkipped): string {
  const items = rerun.cases.slice(0, MAX_SKIPPED_LISTED).map(({ name, jobs }) => {
    const links = jobs.map(
      (job) =>
        `${linkHtml({ text: job.id, href: job.url })}${job.platform ? ` (${safeText(job.platform)})` : ''}`,
    );
    return `<li>${safeText(name)}: ${links.join(', ')}</li>`;
  });
  const more =
    rerun.cases.length > MAX_SKIPPED_LISTED
      ? `<p>${rerun.cases.length - MAX_SKIPPED_LISTED} more are in the results file.</p>`
      : '';
  return `<ul>${items.join('')}</ul>${more}`;
}

/** Which share of the cases this job ran: every case runs in exactly one shard. */
function shardNote(suite: FoundSuite | undefined, shard: ShardShare): string {
  const whose = suite ? "the suite's" : 'the';
  const split = `${whose} ${shard.of} test case(s) are split among ${shard.total} shards by case id`;
  return shard.cases === 0
    ? `Shard ${shardText(shard)} has no test case to run: ${split}, and this shard's share is empty.`
    : `Shard ${shardText(shard)} has ${shard.cases} of ${whose} ${shard.of} test case(s), split among ${shard.total} shards by case id; the other shards run the rest.`;
}
