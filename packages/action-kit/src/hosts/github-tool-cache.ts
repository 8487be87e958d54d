/** The runner's tool cache (`@actions/tool-cache`), loaded on first use: only starting Sauce Connect needs it. */
import type { ToolCache } from '../deps.ts';

export const githubToolCache: ToolCache = {
  find: async (tool, version) => (await import('@actions/tool-cache')).find(tool, version),
  // The toolkit's download takes no signal: the step stops waiting for it on a cancel or deadline.
  downloadTool: async (url, signal) => {
    const download = (await import('@actions/tool-cache')).downloadTool(url);
    if (!signal) return download;
    signal.throwIfAborted();
    return Promise.race([
      download,
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      ),
    ]);
  },
  extractTar: async (file) => (await import('@actions/tool-cache')).extractTar(file),
  extractZip: async (file) => (await import('@actions/tool-cache')).extractZip(file),
  cacheDir: async (dir, tool, version) => (await import('@actions/tool-cache')).cacheDir(dir, tool, version),
};
