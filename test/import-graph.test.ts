/**
 * No import circles anywhere in the sources (`import type` included): each module can be read,
 * tested and loaded on its own, and the bundler's chunks stay in a clear order. The rooms of the
 * action kit and of the client's core stand on floors, each importing only from the floors below it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE_DIRS = ['packages/*/src', 'packages/*/bin', 'actions/*/src', 'src', 'scripts', 'bench'];

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of SOURCE_DIRS) {
    const [top, , rest] = pattern.split('/');
    const dirs =
      rest === undefined
        ? [path.join(ROOT, top as string)]
        : (await readdir(path.join(ROOT, top as string))).map((name) =>
            path.join(ROOT, top as string, name, rest),
          );
    for (const dir of dirs) {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
          files.push(path.join(entry.parentPath, entry.name));
        }
      }
    }
  }
  return files;
}

/** `@sauce-actions/<name>[/<sub>]` to a file, through the workspace package's `exports`. */
async function workspaceResolver(): Promise<(specifier: string) => string | undefined> {
  const packages = new Map<string, { dir: string; exports: Record<string, string> }>();
  for (const name of await readdir(path.join(ROOT, 'packages'))) {
    const dir = path.join(ROOT, 'packages', name);
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, string>;
    };
    packages.set(manifest.name, { dir, exports: manifest.exports ?? {} });
  }
  return (specifier) => {
    const match = /^(@sauce-actions\/[^/]+)(\/.*)?$/.exec(specifier);
    const found = match && packages.get(match[1] as string);
    if (!found) return undefined;
    const sub = `.${match[2] ?? ''}`;
    const exact = found.exports[sub];
    if (exact) return path.join(found.dir, exact);
    const wildcard = found.exports['./*'];
    return wildcard ? path.join(found.dir, wildcard.replace('*', sub.slice(2))) : undefined;
  };
}

/** Each source file and the source files it imports. */
async function importGraph(): Promise<Map<string, string[]>> {
  const files = await sourceFiles();
  const known = new Set(files);
  const resolveWorkspace = await workspaceResolver();
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const code = await readFile(file, 'utf8');
    const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)].map(
      (m) => m[1] as string,
    );
    const targets = specifiers
      .map((spec) => (spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : resolveWorkspace(spec)))
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

let graph: Map<string, string[]>;

beforeAll(async () => {
  graph = await importGraph();
});

it('has no import circles', () => {
  expect(graph.size).toBeGreaterThan(100);

  // Tarjan's strongly connected components: every component of more than one file is a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(ROOT, member));
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  expect(circles).toEqual([]);
});

/**
 * Where imports run across the rooms of `dir` (a folder of it, or a file at its top): those that
 * go up a floor or along one (a room on a lower floor only, or the file's own room), and the
 * rooms on no floor.
 */
function floorBreaches(dir: string, floors: string[][]): { unplaced: string[]; upward: string[] } {
  const base = path.join(ROOT, dir);
  const roomOf = (file: string): string | undefined =>
    file.startsWith(base + path.sep) ? path.relative(base, file).split(path.sep)[0] : undefined;
  const floorOf = (room: string): number => floors.findIndex((rooms) => rooms.includes(room));
  const upward: string[] = [];
  const unplaced = new Set<string>();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    if (from === undefined) continue;
    if (floorOf(from) === -1) unplaced.add(from);
    for (const target of targets) {
      const to = roomOf(target);
      if (to === undefined || to === from) continue;
      if (floorOf(to) === -1) unplaced.add(to);
      else if (floorOf(to) >= floorOf(from))
        upward.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`);
    }
  }
  return { unplaced: [...unplaced], upward };
}

/**
 * The kit's rooms (a folder of `packages/action-kit/src`, or a file at its top), from the ground
 * up: values as users write them; the step's log, secrets, deadline, context and failures; the
 * inputs and the reports; the contract between an action and its host; what runs on it.
 */
const KIT_FLOORS = [
  ['values'],
  ['step'],
  ['inputs', 'reporting'],
  ['deps.ts'],
  ['test-run', 'hosts', 'index.ts', 'testing.ts'],
  ['services'],
];

it("imports within the action kit only from a room on a lower floor, or from the file's own room", () => {
  const { unplaced, upward } = floorBreaches('packages/action-kit/src', KIT_FLOORS);
  expect(unplaced, 'rooms on no floor of KIT_FLOORS').toEqual([]);
  expect(upward).toEqual([]);
});

/**
 * The rooms of the client's core (`packages/api/src/core`), from the ground up: what requests,
 * answers, failures and credentials are made of; where a request goes (regions, proxies) and
 * when (deadlines, retries, pacing, the service's clock, polls); one attempt, sent and its answer
 * read; the layers that wait and send again around it; the transport and its connection pools;
 * and on it, files (multipart bodies, downloads) and the resources' tables with the checks of
 * their answers and their pages.
 */
const CLIENT_CORE_FLOORS = [
  ['values'],
  ['addresses', 'timing'],
  ['attempt'],
  ['layers'],
  ['transport'],
  ['files', 'resources'],
];

it("imports within the client's core only from a room on a lower floor, or from the file's own room", () => {
  const { unplaced, upward } = floorBreaches('packages/api/src/core', CLIENT_CORE_FLOORS);
  expect(unplaced, 'rooms on no floor of CLIENT_CORE_FLOORS').toEqual([]);
  expect(upward).toEqual([]);
});

it("the client's core imports nothing of the interfaces or the client above it", () => {
  const core = path.join(ROOT, 'packages/api/src/core') + path.sep;
  const api = path.join(ROOT, 'packages/api/src') + path.sep;
  const upward = [...graph].flatMap(([file, targets]) =>
    file.startsWith(core)
      ? targets
          .filter((target) => target.startsWith(api) && !target.startsWith(core))
          .map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`)
      : [],
  );
  expect(upward).toEqual([]);
});
