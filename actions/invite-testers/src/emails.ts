/** Tester emails: checked before anything is sent, duplicates dropped. */
import { InputError } from '@sauce-actions/action-kit';

/** Deliberately loose: one `@`, a dot in the domain, no spaces or list separators. */
const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]+$/;

export function checkEmails(emails: readonly string[]): string[] {
  const invalid = emails.filter((email) => !EMAIL.test(email));
  if (invalid.length > 0) {
    throw new InputError(
      'testers',
      `has ${invalid.length === 1 ? 'an invalid email' : 'invalid emails'}: ${invalid.map((e) => JSON.stringify(e)).join(', ')}`,
      'email addresses such as alice@example.com, separated by commas or newlines',
    );
  }
  const seen = new Set<string>();
  return emails.filter((email) => {
    const key = email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
