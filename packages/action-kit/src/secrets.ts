/**
 * Every secret the action has read. Each is masked with `core.setSecret` the moment it is read,
 * which only hides it from the runner's log; the error wrapper and the summary also redact these
 * before writing anything, since files and annotations are not always masked.
 */
import * as core from '@actions/core';

const secrets = new Set<string>();

/** Masks a secret at once, with the encoded forms a service may echo back. */
export function registerSecret(secret: string, basicUser?: string): void {
  if (secret === '') return;
  const forms = [secret, encodeURIComponent(secret)];
  if (basicUser !== undefined) forms.push(Buffer.from(`${basicUser}:${secret}`).toString('base64'));
  for (const form of forms) {
    if (secrets.has(form)) continue;
    secrets.add(form);
    core.setSecret(form);
  }
}

/** Replaces every known secret with `***`, longest first so that no part of one survives. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length < 3) continue;
    out = out.split(secret).join('***');
  }
  return out;
}

/** For tests: forgets the registered secrets. */
export function clearSecrets(): void {
  secrets.clear();
}
