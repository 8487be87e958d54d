/**
 * What the post step may clean up, saved in the step's state as soon as it is known: only what
 * this step started or waited for is ever stopped, and a main step cut short still leaves it.
 */

/** A Sauce Connect process this step launched. */
export interface LaunchedProcess {
  pid: number;
  /** The executable, to tell the process from another that reused its pid. */
  executable: string;
  logFile: string;
  tunnelName: string;
}

/** A tunnel to delete: `started` by this step, or one it only `waited` for (`stop-on-exit: true`). */
interface SavedTunnel {
  id: string;
  name: string | null;
  origin: 'started' | 'waited';
}

export interface CleanupState {
  /** Tunnels to delete through the interface if still listed. */
  tunnels: SavedTunnel[];
  /** The launched process, if any. */
  process?: LaunchedProcess;
}

/** The one state key: the serialized cleanup state. */
export const STATE_KEY = 'cleanup';

function emptyCleanup(): CleanupState {
  return { tunnels: [] };
}

/** Whether the state names anything to stop. */
export function hasCleanup(state: CleanupState): boolean {
  return state.tunnels.length > 0 || state.process !== undefined;
}

export function serializeCleanup(state: CleanupState): string {
  return JSON.stringify(state);
}

/** Reads the saved state; anything malformed counts as nothing to clean up. */
export function parseCleanup(text: string): CleanupState {
  if (text.trim() === '') return emptyCleanup();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return emptyCleanup();
  }
  if (typeof value !== 'object' || value === null) return emptyCleanup();
  const record = value as Record<string, unknown>;
  const tunnels = Array.isArray(record.tunnels)
    ? record.tunnels.flatMap((item: unknown) => {
        const t = item as Record<string, unknown> | null;
        return t && typeof t.id === 'string' && t.id !== ''
          ? [
              {
                id: t.id,
                name: typeof t.name === 'string' ? t.name : null,
                // Unsaid, it is worded as the more careful case: a tunnel others may share.
                origin: t.origin === 'started' ? ('started' as const) : ('waited' as const),
              },
            ]
          : [];
      })
    : [];
  const p = record.process as Record<string, unknown> | undefined;
  const launched =
    p &&
    typeof p.pid === 'number' &&
    Number.isInteger(p.pid) &&
    p.pid > 0 &&
    typeof p.executable === 'string' &&
    typeof p.logFile === 'string' &&
    typeof p.tunnelName === 'string'
      ? { pid: p.pid, executable: p.executable, logFile: p.logFile, tunnelName: p.tunnelName }
      : undefined;
  return { tunnels, ...(launched ? { process: launched } : {}) };
}
