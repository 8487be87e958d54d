/**
 * A tampering stand-in for the automation interface: a local server in front of the emulator
 * that passes every request on, but answers the job listing with other job ids, and job asset
 * lists and asset files of its own (names chosen by the test, an endless file). What the
 * emulator cannot show: a service, or something between, that answers hostile names.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The file that never ends: the stand-in sends it until the client closes the connection. */
export const ENDLESS_ASSET = 'endless.bin';

export interface TamperingOptions {
  /** The emulator everything else is passed on to. */
  upstream: string;
  /** Ids given, in order, to the jobs as they are first listed; later jobs keep theirs. */
  jobIds?: readonly string[];
  /** The asset list of a job, by the id the client asks with (already decoded). */
  assets(jobId: string): Record<string, string | string[] | null>;
}

export interface AssetRequest {
  jobId: string;
  /** Absent for the listing of a job's assets. */
  file?: string;
}

export interface TamperingService {
  url: string;
  /** The asset requests received, decoded. */
  assetRequests: AssetRequest[];
  /** Bytes of the endless file sent so far, every request together. */
  endlessBytesSent(): number;
  close(): Promise<void>;
}

const ASSETS = /^\/rest\/v1[^/]*\/[^/]+\/jobs\/([^/?]+)\/assets(?:\/([^/?]+))?(?:\?.*)?$/;
const JOB_LISTING = /^\/rest\/v1[^/]*\/[^/]+\/jobs(?:\?.*)?$/;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

export async function startTamperingService(options: TamperingOptions): Promise<TamperingService> {
  const renamed = new Map<string, string>();
  const assetRequests: AssetRequest[] = [];
  let endlessBytes = 0;

  const rename = (id: string): string => {
    const known = renamed.get(id);
    if (known !== undefined) return known;
    const next = options.jobIds?.[renamed.size] ?? id;
    renamed.set(id, next);
    return next;
  };

  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    const assets = ASSETS.exec(url);
    if (request.method === 'GET' && assets) {
      const jobId = decodeURIComponent(assets[1] as string);
      const file = assets[2] !== undefined ? decodeURIComponent(assets[2]) : undefined;
      assetRequests.push({ jobId, ...(file !== undefined ? { file } : {}) });
      if (file === undefined) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(options.assets(jobId)));
      } else if (file === ENDLESS_ASSET) {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const send = (): void => {
          while (!response.destroyed) {
            endlessBytes += CHUNK.length;
            if (!response.write(CHUNK)) {
              response.once('drain', send);
              return;
            }
          }
        };
        response.on('close', () => response.removeAllListeners('drain'));
        send();
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`asset ${JSON.stringify(file)} of job ${JSON.stringify(jobId)}\n`);
      }
      return;
    }
    const upstream = http.request(
      new URL(url, options.upstream),
      { method: request.method, headers: request.headers },
      (answer) => {
        if (request.method === 'GET' && JOB_LISTING.test(url) && answer.statusCode === 200) {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const jobs = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }[];
            const body = JSON.stringify(jobs.map((job) => ({ ...job, id: rename(job.id) })));
            response.writeHead(200, { 'content-type': 'application/json' });
            response.end(body);
          });
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    assetRequests,
    endlessBytesSent: () => endlessBytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
