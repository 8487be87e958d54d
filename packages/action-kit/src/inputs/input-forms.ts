/**
 * The forms of values an input may hold, checked wherever they are read (an input, an item of a
 * list): ids, emails, and what a path written for another system looks like.
 */
import { ActionError } from '../step/failure.ts';
import { InputError, quoteValue } from '../step/input-error.ts';

/** How ids are written: a form named by an action, checked before any request. */
export type IdForm = 'positive-integer' | 'hex-24' | 'uuid';

const ID_PATTERNS: Record<IdForm, RegExp> = {
  'positive-integer': /^\d+$/,
  'hex-24': /^[0-9a-f]{24}$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** Each id form in words: what a refused value is not, and what is allowed. */
const ID_FORMS: Readonly<Record<IdForm, { noun: string; allowed: string }>> = {
  'positive-integer': {
    noun: 'a positive whole number',
    allowed: `a positive whole number such as \`1234\`, at most ${Number.MAX_SAFE_INTEGER}`,
  },
  'hex-24': {
    noun: '24 hexadecimal digits',
    allowed: '24 hexadecimal digits (0-9, a-f) such as `65a1f0c2b3d4e5f607182930`',
  },
  uuid: {
    noun: 'a UUID',
    allowed: 'a UUID such as `3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f`',
  },
};

/** Deliberately loose: one `@`, a dot in the host, no spaces or list separators. */
const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]+$/;

/**
 * `retention-days` of an artifact (`read.integer` options): 1 to 90 days on a public repository,
 * up to 400 on a private one, as its settings allow; empty keeps the repository's default. More
 * than the repository allows is cut to its most by the artifact client, with a warning.
 */
export const RETENTION_DAYS = {
  min: 1,
  max: 400,
  what: "empty for the repository's default, or a whole number of days",
} as const;

/** How an email is written, for refusals. */
export const EMAIL_FORM = 'an email address, `name@host` such as `alice@example.com`';

/**
 * Why a path that was not found may be written in a form this runner does not read, as a clause
 * to add to the refusal (`: …`), or '' when its form explains nothing: backslashes on Linux and
 * macOS, a drive letter on a runner that is not Windows, a `~` that no shell expanded.
 */
export function pathFormHint(value: string, platform: NodeJS.Platform = process.platform): string {
  const text = value.trim();
  if (/^~(?=$|[/\\])/.test(text)) {
    return ': `~` is not expanded, as the runner passes inputs as written; use a path relative to the workspace, `${{ github.workspace }}/…`, or `$HOME` in a shell step';
  }
  if (platform === 'win32') return '';
  const system = platform === 'darwin' ? 'macOS' : 'Linux';
  // `\\server\share`: with its backslashes turned, `//server/share` would be a local path here.
  if (/^[\\/]{2}[^\\/]/.test(text) && text.includes('\\')) {
    return `: ${text.slice(0, 2)}… is a Windows network share (UNC path), which a ${system} runner cannot open; copy the file into the workspace first (or mount the share) and name it there`;
  }
  if (/^[A-Za-z]:[\\/]/.test(text)) {
    return `: a drive letter (${text.slice(0, 2)}) is a Windows path, and this runner is ${system}; use a path relative to the workspace`;
  }
  if (text.includes('\\')) {
    return `: \\ is not a folder separator on ${system}; write ${quoteValue(text.replaceAll('\\', '/'))}`;
  }
  return '';
}

/**
 * Refuses a path to write that holds `\\` on a runner that is not Windows, where the `\\` would
 * become part of a file's name (`reports\\junit.xml` in the workspace) instead of a folder; `/`
 * works on every runner, Windows included.
 */
export function checkPathToWrite(
  input: string,
  value: string,
  platform: NodeJS.Platform = process.platform,
): void {
  const hint = platform === 'win32' || !value.includes('\\') ? '' : pathFormHint(value, platform);
  if (hint === '') return;
  throw new InputError(
    input,
    `names ${quoteValue(value)}, a path for Windows${hint}`,
    'a path relative to the workspace with `/` between folders, which every runner reads, such as `reports/junit.xml`',
  );
}

/**
 * An id of the given form, for ids that come in lists (`where`: `item 2`); its text as given, a
 * number without leading zeros. Refuses with the form, and `hint` where such ids come from.
 */
export function checkId(
  input: string,
  value: string,
  form: IdForm,
  options: { where?: string; hint?: string } = {},
): string {
  const text = value.trim();
  const allowed = idAllowed(form, options.hint);
  const at = options.where !== undefined ? `${options.where} ` : '';
  if (!ID_PATTERNS[form].test(text)) {
    throw new InputError(input, `has ${at}${quoteValue(text)}, which is not ${ID_FORMS[form].noun}`, allowed);
  }
  if (form !== 'positive-integer') return text;
  const number = Number(text);
  if (number === 0)
    throw new InputError(input, `has ${at}${quoteValue(text)}, which is not positive`, allowed);
  // Past 2^53 two ids would read as the same number: no service id is that large.
  if (!Number.isSafeInteger(number))
    throw new InputError(input, `has ${at}${quoteValue(text)}, which is too large for an id`, allowed);
  return String(number);
}

/**
 * An input the service's answer showed to be wrong (a suite no one has, a test case the account
 * lacks): worded as an input's mistake, but a refusal, since requests were sent by then. On the
 * command line it exits 1 as every refusal does; 2 promises that nothing was sent.
 */
export function refusedInput(input: string, problem: string, allowed: string): ActionError {
  const mistake = new InputError(input, problem, allowed);
  return new ActionError('refused', `${mistake.message} Fix the input and run the step again.`, {
    cause: mistake,
  });
}

/** Whether the text is an id of the form (a suite is a UUID, or else a name). */
export function isId(text: string, form: IdForm): boolean {
  const value = text.trim();
  if (!ID_PATTERNS[form].test(value)) return false;
  return form !== 'positive-integer' || (Number(value) > 0 && Number.isSafeInteger(Number(value)));
}

/** Whether the text is an email address as the kit accepts it: `name@host.tld`, loosely. */
export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}

export function idAllowed(form: IdForm, hint: string | undefined): string {
  return hint !== undefined ? `${ID_FORMS[form].allowed} (${hint})` : ID_FORMS[form].allowed;
}
