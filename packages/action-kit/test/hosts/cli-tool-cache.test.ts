/** The command line's tool cache: a download is cut by the step's signal, and a cached folder is found again. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type ProxyServer } from 'proxy';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localToolCache } from '../../src/hosts/cli-tool-cache.ts';

let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cli-tools-'));
});
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A server that sends `body`, or with `stall` the headers and a first chunk, then nothing; with
 * `redirect`, the archive's address first sends the client on to another.
 */
async function serve(options: { body?: string; stall?: boolean; redirect?: boolean }): Promise<string> {
  server = createServer((request, response) => {
    if (options.redirect && request.url === '/sc.tar.gz') {
      response.writeHead(302, { location: '/mirror/sc.tar.gz' }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (options.stall) response.write('partial');
    else response.end(options.body);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return `http://127.0.0.1:${address.port}/sc.tar.gz`;
}

describe('localToolCache', () => {
  it('downloads to a file, and caches a folder that is found again by tool and version', async () => {
    const tools = localToolCache({ SAUCE_ACTIONS_TOOL_CACHE: path.join(dir, 'cache') }, dir, dir);
    const file = await tools.downloadTool(await serve({ body: 'archive bytes' }));
    expect(readFileSync(file, 'utf8')).toBe('archive bytes');
    expect(await tools.find('sauce-connect', '5.2.0')).toBe('');
    const source = mkdtempSync(path.join(dir, 'src-'));
    writeFileSync(path.join(source, 'sc'), 'binary');
    const cached = await tools.cacheDir(source, 'sauce-connect', '5.2.0');
    expect(await tools.find('sauce-connect', '5.2.0')).toBe(cached);
    expect(readFileSync(path.join(cached, 'sc'), 'utf8')).toBe('binary');
  });

  it('takes a relative SAUCE_ACTIONS_TOOL_CACHE from the working folder, and hands out absolute paths', async () => {
    const project = mkdtempSync(path.join(dir, 'project-'));
    // A name of this test's own: where the process's folder would take it, it is removed again.
    const relative = `.sauce-tools-${path.basename(dir)}`;
    try {
      const tools = localToolCache({ SAUCE_ACTIONS_TOOL_CACHE: relative }, dir, project);
      const source = mkdtempSync(path.join(dir, 'src-'));
      writeFileSync(path.join(source, 'sc'), 'binary');
      const cached = await tools.cacheDir(source, 'sauce-connect', '5.2.0');
      expect(cached).toBe(path.join(project, relative, 'sauce-connect', '5.2.0', process.arch));
      expect(readFileSync(path.join(cached, 'sc'), 'utf8')).toBe('binary');
      expect(existsSync(path.resolve(relative))).toBe(false);
      // Found again from the working folder, whatever the process's own is.
      const again = localToolCache({ SAUCE_ACTIONS_TOOL_CACHE: relative }, dir, project);
      expect(await again.find('sauce-connect', '5.2.0')).toBe(cached);
    } finally {
      rmSync(path.resolve(relative), { recursive: true, force: true });
    }
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG specification says: the user’s cache instead', async () => {
    const home = mkdtempSync(path.join(dir, 'home-'));
    const relative = `xdg-cache-${path.basename(dir)}`;
    vi.spyOn(os, 'homedir').mockReturnValue(home);
    try {
      const source = mkdtempSync(path.join(dir, 'src-'));
      writeFileSync(path.join(source, 'sc'), 'binary');
      const tools = localToolCache({ XDG_CACHE_HOME: relative }, dir, dir);
      const cached = await tools.cacheDir(source, 'sauce-connect', '5.2.0');
      expect(cached).toBe(
        path.join(home, '.cache', 'sauce-actions', 'tools', 'sauce-connect', '5.2.0', process.arch),
      );
    } finally {
      vi.restoreAllMocks();
      rmSync(path.resolve(relative), { recursive: true, force: true });
    }
  });

  it('ends a download that stalls when the signal aborts, with its reason', async () => {
    const tools = localToolCache({ SAUCE_ACTIONS_TOOL_CACHE: path.join(dir, 'cache') }, dir, dir);
    const url = await serve({ stall: true });
    const cancel = new AbortController();
    const why = new Error('the run was cancelled (SIGINT)');
    // The download never ends on its own: only the abort can end it.
    setTimeout(() => cancel.abort(why), 100);
    await expect(tools.downloadTool(url, cancel.signal)).rejects.toBe(why);
  });

  it('downloads through the proxy the environment names, following a redirect', async () => {
    const proxy: ProxyServer = createProxy(createServer());
    // An http address goes through the proxy as a request for the whole address, not a tunnel.
    const forwarded: string[] = [];
    proxy.on('request', (request: IncomingMessage) => forwarded.push(request.url ?? ''));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = await serve({ body: 'archive bytes', redirect: true });
      vi.stubEnv('HTTP_PROXY', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      vi.stubEnv('NO_PROXY', '');
      const tools = localToolCache({ SAUCE_ACTIONS_TOOL_CACHE: path.join(dir, 'cache') }, dir, dir);
      const file = await tools.downloadTool(url);
      expect(readFileSync(file, 'utf8')).toBe('archive bytes');
      expect(forwarded).toEqual([url, new URL('/mirror/sc.tar.gz', url).href]);
    } finally {
      vi.unstubAllEnvs();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('names the address and the proxy when the proxy cannot be reached', async () => {
    const url = await serve({ body: 'archive bytes' });
    vi.stubEnv('HTTP_PROXY', 'http://127.0.0.1:9');
    vi.stubEnv('NO_PROXY', '');
    try {
      const tools = localToolCache({ SAUCE_ACTIONS_TOOL_CACHE: path.join(dir, 'cache') }, dir, dir);
      await expect(tools.downloadTool(url)).rejects.toThrow(
        /could not reach http:\/\/127\.0\.0\.1:\d+\/sc\.tar\.gz through the proxy http:\/\/127\.0\.0\.1:9 \(from HTTP_PROXY\)/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
