/** Where uploaded packages and symbol files are kept, under the emulator's files folder. */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EmulatorContext } from '../context.ts';

const FOLDER = 'mobile';

/** A fresh relative name for a stored file (the folder is created on first use). */
export async function newStoredFile(ctx: EmulatorContext, extension: string): Promise<string> {
  await mkdir(path.join(ctx.filesDir, FOLDER), { recursive: true });
  return `${FOLDER}/${randomUUID()}${extension}`;
}

export function storedPath(ctx: EmulatorContext, stored: string): string {
  return path.join(ctx.filesDir, stored);
}

export async function removeStored(ctx: EmulatorContext, stored: readonly string[]): Promise<void> {
  await Promise.all(stored.map((name) => rm(storedPath(ctx, name), { force: true })));
}

export async function copyStored(ctx: EmulatorContext, stored: string): Promise<string> {
  const copy = await newStoredFile(ctx, path.extname(stored));
  await copyFile(storedPath(ctx, stored), storedPath(ctx, copy));
  return copy;
}
