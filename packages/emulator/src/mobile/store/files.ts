/** Where uploaded packages and symbol files are kept, under the emulator's files folder. */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { MobileState } from './state.ts';

const FOLDER = 'mobile';

/** Stored files are named relative to the files folder (`mobile/<uuid><extension>`), as builds keep them. */
export class MobileFiles {
  readonly #state: MobileState;

  constructor(state: MobileState) {
    this.#state = state;
  }

  /** A fresh name for a stored file (the folder is created on first use). */
  async newFile(extension: string): Promise<string> {
    await mkdir(path.join(this.#state.filesDir, FOLDER), { recursive: true });
    return `${FOLDER}/${randomUUID()}${extension}`;
  }

  path(stored: string): string {
    return path.join(this.#state.filesDir, stored);
  }

  async remove(stored: readonly string[]): Promise<void> {
    await Promise.all(stored.map((name) => rm(this.path(name), { force: true })));
  }

  async copy(stored: string): Promise<string> {
    const copy = await this.newFile(path.extname(stored));
    await copyFile(this.path(stored), this.path(copy));
    return copy;
  }
}
