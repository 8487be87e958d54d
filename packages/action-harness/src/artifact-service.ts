/**
 * A stand-in for the runner's artifact service (the results service that `@actions/artifact` 2 and
 * later talks to), for one workflow run: Twirp JSON `CreateArtifact` and `FinalizeArtifact`, and
 * the signed address the archive is put to in blocks, as blob storage takes it. It keeps GitHub's
 * rules: a name is unique within the run, so a second `CreateArtifact` under a name the run
 * already has is refused with 409 `already_exists`, whichever job asks; every request must carry
 * a runtime token this stand-in issued, for this run. It records every call and every artifact,
 * whose archive's entries a test can read back.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import yauzl from 'yauzl';

const SERVICE = '/twirp/github.actions.results.api.v1.ArtifactService/';

export interface StandInArtifact {
  id: number;
  name: string;
  /** The job (`jobEnv`'s key) whose token created it. */
  job: string;
  /** `expires_at` as sent: none when the step left retention to the repository's default. */
  expiresAt?: string;
  /** Set by `FinalizeArtifact`: an artifact not finalized never shows in the run. */
  finalized: boolean;
  size: number;
  /** The archive as uploaded. */
  content: Buffer;
}

export interface ArtifactCall {
  method: string;
  job?: string;
  name?: string;
  status: number;
}

export interface ArtifactServiceStandIn {
  /**
   * The variables the runner gives a step of one job of this run: the results service's address
   * and a runtime token of that job (each key its own job, as each leg of a matrix is).
   */
  jobEnv(job?: string): { ACTIONS_RUNTIME_TOKEN: string; ACTIONS_RESULTS_URL: string };
  /** Finalized artifacts, in order of creation. */
  artifacts(): StandInArtifact[];
  /** Every Twirp call, in order, with the status answered. */
  calls: ArtifactCall[];
  /** The file names inside an artifact's zip archive, sorted. */
  entries(artifact: StandInArtifact): Promise<string[]>;
  close(): Promise<void>;
}

export async function startArtifactService(): Promise<ArtifactServiceStandIn> {
  const runId = randomUUID();
  /** Runtime tokens by value: the job each was issued to, and that job's backend id. */
  const tokens = new Map<string, { job: string; jobRunId: string }>();
  const byJob = new Map<string, string>();
  const created: StandInArtifact[] = [];
  const blocks = new Map<number, Map<string, Buffer>>();
  const signatures = new Map<number, string>();
  const calls: ArtifactCall[] = [];
  let nextId = 1;
  let url = '';

  const twirp = async (method: string, request: IncomingMessage, response: ServerResponse) => {
    const caller = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    const body = JSON.parse((await readBody(request)).toString('utf8') || '{}') as Record<string, unknown>;
    const name = typeof body.name === 'string' ? body.name : undefined;
    const answer = (status: number, value: unknown): void => {
      calls.push({ method, ...(caller ? { job: caller.job } : {}), ...(name ? { name } : {}), status });
      send(response, status, value);
    };
    if (!caller) return answer(401, { code: 'unauthenticated', msg: 'invalid runtime token' });
    if (body.workflow_run_backend_id !== runId || body.workflow_job_run_backend_id !== caller.jobRunId) {
      return answer(403, { code: 'permission_denied', msg: 'the backend ids are not those of the token' });
    }
    if (method === 'CreateArtifact') {
      if (!name || /["':<>|*?\r\n\\/]/.test(name)) {
        return answer(400, { code: 'invalid_argument', msg: 'invalid artifact name' });
      }
      if (created.some((artifact) => artifact.name === name)) {
        return answer(409, {
          code: 'already_exists',
          msg: 'an artifact with this name already exists on the workflow run',
        });
      }
      const id = nextId++;
      const expiresAt = typeof body.expires_at === 'string' ? body.expires_at : undefined;
      created.push({
        id,
        name,
        job: caller.job,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        finalized: false,
        size: 0,
        content: Buffer.alloc(0),
      });
      const sig = randomBytes(16).toString('hex');
      signatures.set(id, sig);
      return answer(200, { ok: true, signed_upload_url: `${url}/blob/${id}?sig=${sig}` });
    }
    if (method === 'FinalizeArtifact') {
      const artifact = created.find((item) => item.name === name && !item.finalized);
      if (!artifact) return answer(404, { code: 'not_found', msg: 'no such artifact to finalize' });
      if (String(artifact.content.length) !== String(body.size)) {
        return answer(400, { code: 'invalid_argument', msg: 'the size is not that of the upload' });
      }
      artifact.finalized = true;
      artifact.size = artifact.content.length;
      return answer(200, { ok: true, artifact_id: String(artifact.id) });
    }
    return answer(404, { code: 'bad_route', msg: `no handler for ${method}` });
  };

  // Blob storage as the artifact client writes it: blocks (`comp=block`), then their list (`comp=blocklist`).
  const blob = async (id: number, address: URL, request: IncomingMessage, response: ServerResponse) => {
    const artifact = created.find((item) => item.id === id && !item.finalized);
    const content = await readBody(request);
    if (!artifact || request.method !== 'PUT' || address.searchParams.get('sig') !== signatures.get(id)) {
      return send(response, 403, { code: 'AuthenticationFailed' });
    }
    const comp = address.searchParams.get('comp');
    if (comp === 'block') {
      const parts = blocks.get(id) ?? new Map<string, Buffer>();
      parts.set(address.searchParams.get('blockid') ?? '', content);
      blocks.set(id, parts);
    } else if (comp === 'blocklist') {
      const parts = blocks.get(id) ?? new Map<string, Buffer>();
      const ids = [...content.toString('utf8').matchAll(/<(?:Latest|Committed|Uncommitted)>([^<]*)</g)];
      artifact.content = Buffer.concat(ids.map((match) => parts.get(match[1] ?? '') ?? Buffer.alloc(0)));
    } else {
      artifact.content = content;
    }
    response.writeHead(201, { 'x-ms-request-id': randomUUID(), 'x-ms-version': '2025-01-05' });
    response.end();
  };

  const server = createServer((request, response) => {
    const address = new URL(request.url ?? '/', 'http://stand-in');
    const handled = address.pathname.startsWith(SERVICE)
      ? twirp(address.pathname.slice(SERVICE.length), request, response)
      : /^\/blob\/\d+$/.test(address.pathname)
        ? blob(Number(address.pathname.slice(6)), address, request, response)
        : Promise.resolve(send(response, 404, { code: 'bad_route', msg: 'not found' }));
    handled.catch((error: unknown) => send(response, 500, { code: 'internal', msg: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    jobEnv(job = 'build') {
      let jobRunId = byJob.get(job);
      if (jobRunId === undefined) {
        jobRunId = randomUUID();
        byJob.set(job, jobRunId);
      }
      const token = runtimeToken(`Actions.Results:${runId}:${jobRunId}`);
      tokens.set(token, { job, jobRunId });
      return { ACTIONS_RUNTIME_TOKEN: token, ACTIONS_RESULTS_URL: `${url}/` };
    },
    artifacts: () => created.filter((artifact) => artifact.finalized),
    calls,
    entries: (artifact) => zipEntries(artifact.content),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A token of JWT form whose `scp` claim names the run and the job, which is all the client reads. */
function runtimeToken(scope: string): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = { scp: `Actions.GenericRead:${randomUUID()} ${scope}`, iat: now, exp: now + 3600 };
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${randomBytes(32).toString('base64url')}`;
}

function zipEntries(content: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(content, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names.sort()));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
