/**
 * A forwarding proxy in front of the emulator, one per shard, so that each shard's own requests
 * can be counted: the emulator's journal has no trace of who sent a request, and the shards of a
 * matrix share one account. Requests and answers pass through unchanged (headers, rate headers,
 * bodies), on kept-alive connections; the emulator's journal stays the reference for the totals.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  /** Milliseconds since the epoch, when the request arrived. */
  time: number;
  /** 0 until answered. */
  status: number;
}

export interface ShardProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Resolves with the first answered start of a case or suite run through this proxy. */
  firstStart: Promise<ProxiedRequest>;
  close(): Promise<void>;
}

/** A case run or a suite run: what queues jobs. */
export const START_PATH = /^\/v1\/ai-authoring\/(testcases|testsuites)\/[^/]+\/run(\/[^/]+)?$/;

/** Connection-level headers, which each hop sets for itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

function endToEnd(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

export async function startShardProxy(target: string): Promise<ShardProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const requests: ProxiedRequest[] = [];
  let started: (request: ProxiedRequest) => void = () => {};
  const firstStart = new Promise<ProxiedRequest>((resolve) => (started = resolve));

  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    const record: ProxiedRequest = {
      method: request.method ?? 'GET',
      path: url.split('?')[0]!,
      time: Date.now(),
      status: 0,
    };
    requests.push(record);
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: record.method,
        path: url,
        headers: endToEnd(request.rawHeaders),
        agent,
      },
      (answer) => {
        record.status = answer.statusCode ?? 0;
        response.writeHead(record.status, answer.statusMessage, endToEnd(answer.rawHeaders));
        answer.pipe(response);
        if (record.method === 'POST' && START_PATH.test(record.path) && record.status < 300) {
          answer.once('end', () => started(record));
        }
      },
    );
    forward.once('error', () => response.destroy());
    // A client that gives up (a cancelled step) ends the request upstream too.
    response.once('close', () => {
      if (!response.writableFinished) forward.destroy();
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    firstStart,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
