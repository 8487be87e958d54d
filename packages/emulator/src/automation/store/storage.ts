/** Temporary storage: the files each account uploaded, kept for a week from their upload. */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { StoreState } from '../../shared/store-state.ts';
import type { AutomationData, StoredFileRecord } from '../model.ts';

/** The service keeps a file in temporary storage 7 days from its upload (seed 002, Limits). */
const RETENTION_MS = 7 * 86_400_000;

export class TemporaryStorage {
  readonly #state: StoreState<AutomationData>;

  constructor(state: StoreState<AutomationData>) {
    this.#state = state;
  }

  /** Where the bytes of a stored file live. */
  path(owner: string, name: string): string {
    return path.join(this.#state.filesDir, 'storage', encodeURIComponent(owner), encodeURIComponent(name));
  }

  get(owner: string, name: string): StoredFileRecord | undefined {
    this.#expire(owner);
    const files = this.#state.data.storage[owner];
    return files && Object.hasOwn(files, name) ? files[name] : undefined;
  }

  list(owner: string): StoredFileRecord[] {
    this.#expire(owner);
    return Object.values(this.#state.data.storage[owner] ?? {});
  }

  record(owner: string, record: StoredFileRecord): void {
    (this.#state.data.storage[owner] ??= {})[record.name] = record;
    this.#state.changed();
  }

  /** Forgets the owner's files older than the retention period, with their bytes. */
  #expire(owner: string): void {
    const files = this.#state.data.storage[owner];
    if (!files) return;
    const now = this.#state.now();
    let expired = false;
    for (const [name, record] of Object.entries(files)) {
      if (now < record.mtime * 1000 + RETENTION_MS) continue;
      Reflect.deleteProperty(files, name);
      rmSync(this.path(owner, name), { force: true });
      expired = true;
    }
    if (expired) this.#state.changed();
  }
}
