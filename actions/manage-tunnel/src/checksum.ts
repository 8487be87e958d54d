/**
 * Checksums of the Sauce Connect archive: the forms `sc-checksum` takes, the ones the download
 * listing publishes that can be trusted, and the comparison with the file, done in one pass.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { ActionError, InputError, quoteValue } from '@sauce-actions/action-kit';

/** Digests strong enough to tell a tampered archive; a listed sha1 or md5 is not used. */
const HEX_LENGTH = { sha256: 64, sha384: 96, sha512: 128 } as const;
type ChecksumAlgorithm = keyof typeof HEX_LENGTH;

export interface Checksum {
  algorithm: ChecksumAlgorithm;
  /** Lower-case hex. */
  value: string;
}

/** A checksum the archive must match, and who says so. */
export interface ExpectedChecksum extends Checksum {
  /** `` `sc-checksum` `` or `the Sauce Labs download listing`. */
  from: string;
  /** The same as the failure words it: `` `sc-checksum` says ``, `the Sauce Labs download listing publishes`. */
  claim: string;
}

const SC_CHECKSUM_FORM =
  "the archive's sha256, 64 hex digits as `sha256sum` prints them, optionally written `sha256:<hex>` (or `sha512:<hex>`)";

/** A checksum in a usable form, or undefined: an unknown algorithm or a value of the wrong length. */
export function checksumOf(algorithm: string, value: string): Checksum | undefined {
  const name = algorithm.trim().toLowerCase().replace('-', '') as ChecksumAlgorithm;
  const hex = value.trim().toLowerCase();
  if (!Object.hasOwn(HEX_LENGTH, name)) return undefined;
  return new RegExp(`^[0-9a-f]{${HEX_LENGTH[name]}}$`).test(hex)
    ? { algorithm: name, value: hex }
    : undefined;
}

/** `sc-checksum`: `<algorithm>:<hex>`, or bare hex whose length says sha256 or sha512. */
export function parseScChecksum(text: string): Checksum {
  const match = /^([A-Za-z0-9-]+):(.*)$/.exec(text.trim());
  const hex = (match?.[2] ?? text).trim();
  const algorithm = match ? (match[1] as string) : hex.length === HEX_LENGTH.sha512 ? 'sha512' : 'sha256';
  const checksum = checksumOf(algorithm, hex);
  if (!checksum) {
    throw new InputError('sc-checksum', `has ${quoteValue(text)}, which is not a checksum`, SC_CHECKSUM_FORM);
  }
  return checksum;
}

/** Hashes the file once for every algorithm asked for. */
async function digests(file: string, algorithms: readonly ChecksumAlgorithm[]): Promise<Map<string, string>> {
  const hashes = [...new Set(algorithms)].map((algorithm) => [algorithm, createHash(algorithm)] as const);
  for await (const chunk of createReadStream(file)) {
    for (const [, hash] of hashes) hash.update(chunk as Buffer);
  }
  return new Map(hashes.map(([algorithm, hash]) => [algorithm, hash.digest('hex')]));
}

/**
 * Fails of kind `service` unless the file matches every expected checksum: the listing's and
 * `sc-checksum` both, when both are known. `what` names the archive in the failure.
 */
export async function verifyArchive(
  file: string,
  expected: readonly ExpectedChecksum[],
  what: string,
): Promise<void> {
  const actual = await digests(
    file,
    expected.map((checksum) => checksum.algorithm),
  );
  for (const checksum of expected) {
    const found = actual.get(checksum.algorithm);
    if (found === checksum.value) continue;
    throw new ActionError(
      'service',
      `The Sauce Connect archive ${what} does not match: its ${checksum.algorithm} is ${found}, but ${checksum.claim} ${checksum.value}. ` +
        'Nothing was unpacked, cached or run. A download cut short or changed on its way, a mirror that serves another build, or a wrong `sc-checksum` explain it; try again, or check `sc-download-url` and `sc-checksum`.',
    );
  }
}

/** `sha256 3b48…` for logs and the summary. */
export function describeChecksum(checksum: Checksum): string {
  return `${checksum.algorithm} ${checksum.value}`;
}
