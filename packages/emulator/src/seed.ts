/** The seed: the state the emulator starts from (and returns to on reset). */
import { readFile } from 'node:fs/promises';
import { defaultAuthoringSeed, type AuthoringSeed } from './authoring/seed.ts';
import { defaultAutomationSeed, type AutomationSeed } from './automation/seed.ts';
import { defaultMobileSeed, type MobileSeed } from './mobile/seed.ts';

export interface Seed {
  automation: AutomationSeed;
  authoring: AuthoringSeed;
  mobile: MobileSeed;
}

export function defaultSeed(): Seed {
  return {
    automation: defaultAutomationSeed(),
    authoring: defaultAuthoringSeed(),
    mobile: defaultMobileSeed(),
  };
}

/** Reads a seed file; each section it holds replaces the default section, the others stay. */
export async function readSeedFile(file: string): Promise<Seed> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read seed file ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(
      `seed file ${file} must hold a JSON object with automation, authoring and mobile sections`,
    );
  }
  return { ...defaultSeed(), ...(parsed as Partial<Seed>) };
}
