/** `--data-dir`: the state snapshot kept in `state.json`, written shortly after changes and on close. */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmulatorState, Snapshot } from './state.ts';

const STATE_FILE = 'state.json';
/** Changes arriving together are written once. */
const DEBOUNCE_MS = 100;

export async function readSnapshot(dataDir: string): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dataDir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as Snapshot;
  } catch (error) {
    throw new Error(`state file in ${dataDir} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export class StatePersistence {
  readonly #state: EmulatorState;
  readonly #file: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(state: EmulatorState, dataDir: string) {
    this.#state = state;
    this.#file = path.join(dataDir, STATE_FILE);
  }

  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, DEBOUNCE_MS);
    this.#timer.unref();
  }

  /** Writes any pending change now and waits for every write to finish. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      await this.#write();
    }
    await this.#writing;
  }

  #write(): Promise<void> {
    // Writes run one after another; each goes to a side file renamed over the old one, so a crash
    // mid-write leaves the previous state whole.
    this.#writing = this.#writing
      .catch(() => undefined)
      .then(async () => {
        const partial = `${this.#file}.part`;
        await writeFile(partial, JSON.stringify(this.#state.snapshot()));
        await rename(partial, this.#file);
      });
    return this.#writing;
  }
}
