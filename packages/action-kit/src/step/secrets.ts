/**
 * Every secret the action has read. Each is handed to the host's masker the moment it is read
 * (the runner then hides it in the log); everything the kit writes (summaries, files, errors,
 * outputs) is also redacted here, since files and annotations are not always masked.
 */

const secrets = new Set<string>();
const maskers = new Set<(secret: string) => void>();

/** Registers the host's way of hiding a secret from its log; it also receives the secrets known so far. */
export function onSecret(masker: (secret: string) => void): () => void {
  maskers.add(masker);
  for (const secret of secrets) masker(secret);
  return () => maskers.delete(masker);
}

/** Masks a secret at once, with the encoded forms a service may echo back. */
export function registerSecret(secret: string, basicUser?: string): void {
  if (secret === '') return;
  const forms = [secret, encodeURIComponent(secret)];
  if (basicUser !== undefined) forms.push(Buffer.from(`${basicUser}:${secret}`).toString('base64'));
  for (const form of forms) {
    if (secrets.has(form)) continue;
    secrets.add(form);
    for (const masker of maskers) masker(form);
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
