/**
 * What a store takes from the emulator, in place of the whole context: the clock, the notice of
 * a change (which the data-dir persistence listens to) and the folder of stored files.
 */
export interface StoreEnvironment {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Called after every change of state. */
  changed(): void;
  /** Folder for uploaded builds, stored files and job assets. */
  readonly filesDir: string;
}
