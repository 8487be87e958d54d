/**
 * Read-only dashboard pages at the addresses the actions link to when `api-url` points at the
 * emulator: a job (`/tests/:jobId`, with its assets) and a mobile build
 * (`/projects/:projectId/builds/:buildId` and its `/invite-testers` page). A browser follows these
 * links, so they take no credentials; like the admin endpoints they answer loopback clients only.
 * Every value is escaped; anything not found gets an HTML 404 page.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { assetContent, assetList } from '../automation/assets.ts';
import { jobTimes, jobView } from '../automation/job-view.ts';
import type { JobRecord } from '../automation/model.ts';
import type { AutomationJobs } from '../automation/store/jobs.ts';
import type { Build, MobileData, Project } from '../mobile/model.ts';
import { isLoopback } from '../shared/credentials.ts';
import { escapeHtml } from '../shared/html.ts';
import { link, list, page, table, time } from './html.ts';

/** What the pages read, and nothing else: jobs, the mobile records, and the clock. */
interface DashboardSources {
  jobs: Pick<AutomationJobs, 'get'>;
  mobile: { readonly data: Pick<MobileData, 'builds' | 'projects' | 'invites' | 'testers'> };
  now(): number;
}

type Params = Record<string, string>;

function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page(title, body));
}

function notFoundPage(reply: FastifyReply, what: string): FastifyReply {
  return sendPage(reply, 404, 'Not found', `<p>${escapeHtml(what)} is not known to this emulator.</p>`);
}

const jobPath = (job: JobRecord): string => `/tests/${encodeURIComponent(job.id)}`;
const buildPath = (build: Build): string =>
  `/projects/${encodeURIComponent(String(build.projectId))}/builds/${encodeURIComponent(String(build.id))}`;

function jobPage(now: number, job: JobRecord, baseUrl: string): string {
  const view = jobView(job, now, baseUrl);
  const times = jobTimes(job, now);
  const passed = view['passed'] === null ? 'not set' : view['passed'] ? 'yes' : 'no';
  const assets = Object.entries(assetList(job, now)).map(([name, files]) => {
    const names = files === null ? [] : Array.isArray(files) ? files : [files];
    const links = names.map((file) => link(`${jobPath(job)}/assets/${encodeURIComponent(file)}`, file));
    return `${escapeHtml(name)}: ${links.length > 0 ? links.join(', ') : 'none'}`;
  });
  return [
    table([
      ['Job', escapeHtml(job.id)],
      ['Name', escapeHtml(job.name)],
      ['Build', escapeHtml(job.build ?? '—')],
      ['Status', escapeHtml(view['status'])],
      ['Result', escapeHtml(view['consolidated_status'])],
      ['Passed', passed],
      ['Browser', escapeHtml(`${job.browser} ${job.browserVersion}`)],
      ['OS', escapeHtml(job.os)],
      ['Owner', escapeHtml(job.owner)],
      ['Tunnel', escapeHtml(job.tunnelIdentifier ?? '—')],
      ['Tags', escapeHtml(job.tags.join(', ') || '—')],
      ['Created', time(job.createdMs)],
      ['Started', time(times.startMs)],
      ['Ended', time(times.endMs)],
    ]),
    '<h2>Assets</h2>',
    list(assets, 'No assets.'),
  ].join('\n');
}

function buildPage(sources: DashboardSources, project: Project, build: Build): string {
  const store = sources.mobile.data;
  const invited = store.invites
    .filter((invite) => invite.buildId === build.id)
    .sort((a, b) => a.time - b.time)
    .map((invite) => {
      const tester = store.testers.find((candidate) => candidate.id === invite.testerId);
      return `${escapeHtml(tester?.email ?? `tester ${invite.testerId}`)}, invited ${time(invite.time)}`;
    });
  const landing = `/download/${encodeURIComponent(build.code)}/`;
  return [
    table([
      ['App', escapeHtml(build.appName)],
      ['Version', escapeHtml(`${build.appVersion} (${build.appVersionCode})`)],
      ['Platform', escapeHtml(build.platform)],
      ['Package', escapeHtml(build.packageName)],
      ['Project', escapeHtml(`${project.name} (${project.id})`)],
      ['Build', escapeHtml(build.id)],
      ['File', escapeHtml(`${build.fileName}, ${build.fileSize} bytes`)],
      ['Uploaded', `${time(build.uploadedAt)} by ${escapeHtml(build.uploaderEmail || '—')}`],
      ['Tags', escapeHtml(build.tags.join(', ') || '—')],
      ['Release notes', escapeHtml(build.changelog || '—')],
      ['Groups', escapeHtml(build.groups.join(', ') || '—')],
      ['Landing page', link(landing, landing)],
    ]),
    `<h2>Testers invited (${invited.length})</h2>`,
    list(invited, 'No tester has been invited to this build.'),
    `<p>${link(`${buildPath(build)}/invite-testers`, 'Invite testers')} · ${link(buildPath(build), 'Build')}</p>`,
  ].join('\n');
}

/** The build, or undefined when the ids are not numbers or name no build of that project. */
function findBuild(
  sources: DashboardSources,
  params: Params,
): { project: Project; build: Build } | undefined {
  const { projectId = '', buildId = '' } = params;
  if (!/^\d{1,15}$/.test(projectId) || !/^\d{1,15}$/.test(buildId)) return undefined;
  const store = sources.mobile.data;
  const build = store.builds.find(
    (candidate) => candidate.id === Number(buildId) && candidate.projectId === Number(projectId),
  );
  const project = build && store.projects.find((candidate) => candidate.id === build.projectId);
  return build && project ? { project, build } : undefined;
}

export async function dashboardRoutes(
  app: FastifyInstance,
  options: { sources: DashboardSources },
): Promise<void> {
  const { sources } = options;

  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopback(request.socket.remoteAddress)) {
      return sendPage(reply, 403, 'Forbidden', '<p>Dashboard pages answer loopback clients only.</p>');
    }
    return undefined;
  });
  app.setErrorHandler((error, _request, reply) =>
    sendPage(reply, 500, 'Error', `<p>${escapeHtml((error as Error).message)}</p>`),
  );

  app.get<{ Params: Params }>('/tests/:jobId', async (request, reply) => {
    const job = sources.jobs.get(request.params.jobId ?? '');
    if (!job) return notFoundPage(reply, `Job ${request.params.jobId}`);
    const title = `Job ${job.name || job.id}`;
    return sendPage(reply, 200, title, jobPage(sources.now(), job, `${request.protocol}://${request.host}`));
  });

  app.get<{ Params: Params }>('/tests/:jobId/assets/:file', async (request, reply) => {
    const job = sources.jobs.get(request.params.jobId ?? '');
    if (!job) return notFoundPage(reply, `Job ${request.params.jobId}`);
    const asset = assetContent(job, request.params.file ?? '', sources.now());
    if (!asset) return notFoundPage(reply, `Asset ${request.params.file} of job ${job.id}`);
    return reply.type(asset.contentType).send(asset.body);
  });

  app.get<{ Params: Params }>('/projects/:projectId/builds/:buildId', async (request, reply) => {
    const found = findBuild(sources, request.params);
    if (!found)
      return notFoundPage(reply, `Build ${request.params.buildId} of project ${request.params.projectId}`);
    const { project, build } = found;
    return sendPage(reply, 200, `${build.appName} ${build.appVersion}`, buildPage(sources, project, build));
  });

  app.get<{ Params: Params }>(
    '/projects/:projectId/builds/:buildId/invite-testers',
    async (request, reply) => {
      const found = findBuild(sources, request.params);
      if (!found)
        return notFoundPage(reply, `Build ${request.params.buildId} of project ${request.params.projectId}`);
      const { project, build } = found;
      // Read-only: testers are invited through the REST interface (or the invite-testers action).
      const note =
        '<p>Testers are invited through the REST interface (<code>POST /api/1/projects/…/builds/…/invites</code>) or the invite-testers action.</p>';
      return sendPage(
        reply,
        200,
        `Invite testers: ${build.appName} ${build.appVersion}`,
        `${note}\n${buildPage(sources, project, build)}`,
      );
    },
  );

  // Any other page under these paths: the HTML 404 (a prefix-less plugin cannot have its own
  // not-found handler, so catch-all routes stand in for one).
  for (const path of ['/tests/*', '/projects/*']) {
    app.get(path, async (request, reply) => notFoundPage(reply, `The page ${request.url.split('?')[0]}`));
  }
}
