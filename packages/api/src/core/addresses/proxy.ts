/**
 * Which proxy a request goes through, from the variables curl and undici read: `https_proxy` or
 * `HTTPS_PROXY` for https addresses (else the http proxy), `http_proxy` or `HTTP_PROXY` for http
 * ones (the lower-case form first), and `no_proxy` or `NO_PROXY` for the hosts reached directly.
 * The default dispatcher routes by it, and an error on the way to the proxy names the proxy and
 * the variable, so the two always agree.
 */

export interface ProxyRoute {
  /** The address as written, credentials included: for the dispatcher only. */
  uri: string;
  /** The address without credentials or path, for errors and logs. */
  display: string;
  /** The variable it came from, as it is spelled in the environment. */
  variable: string;
  /** Whether the address carries a user name or password (sent as `Proxy-Authorization`). */
  hasCredentials: boolean;
}

/** A proxy variable whose value is not an address: every request through it fails, saying so. */
export class ProxyAddressError extends Error {
  override readonly name = 'ProxyAddressError';
  readonly variable: string;

  constructor(variable: string) {
    super(`${variable} is not a proxy address (expected http://[user:password@]host:port)`);
    this.variable = variable;
  }
}

type Environment = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy for `url` (an origin or any address), or undefined when it is reached directly. */
export function proxyFor(url: string | URL, env: Environment = process.env): ProxyRoute | undefined {
  const target = typeof url === 'string' ? new URL(url) : url;
  const https = target.protocol === 'https:';
  const chosen =
    (https ? firstSet(env, 'https_proxy', 'HTTPS_PROXY') : undefined) ??
    firstSet(env, 'http_proxy', 'HTTP_PROXY');
  if (!chosen) return undefined;
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  if (bypassed(target.hostname, port, firstSet(env, 'no_proxy', 'NO_PROXY')?.value ?? '')) return undefined;
  return route(chosen.variable, chosen.value);
}

/** The first of the names that is set to something; an empty lower-case form hides the other, as in undici. */
function firstSet(
  env: Environment,
  lower: string,
  upper: string,
): { variable: string; value: string } | undefined {
  const variable = env[lower] !== undefined ? lower : upper;
  const value = env[variable];
  return value ? { variable, value } : undefined;
}

function route(variable: string, value: string): ProxyRoute {
  // `host:port` without a scheme is common in these variables; curl reads it as http.
  const written = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let parsed: URL;
  try {
    parsed = new URL(written);
  } catch {
    throw new ProxyAddressError(variable);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ProxyAddressError(variable);
  return {
    uri: written,
    display: `${parsed.protocol}//${parsed.host}`,
    variable,
    hasCredentials: parsed.username !== '' || parsed.password !== '',
  };
}

/**
 * Whether `NO_PROXY` names the host: entries split by commas or spaces; `*` is every host; a name
 * also covers its subdomains (`example.com`, `.example.com`), `*.example.com` only the subdomains;
 * `host:port` only that port. The same reading as undici's and curl's.
 */
export function bypassed(hostname: string, port: number, noProxy: string): boolean {
  const host = hostname
    .replace(/^\[(.+)\]$/, '$1')
    .replace(/(.)\.$/, '$1')
    .toLowerCase();
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const bracketed = /^\[(.+)\]:(\d+)$/.exec(entry);
    const unbracketed = entry.replace(/^\[(.+)\]$/, '$1');
    const withPort =
      !bracketed && (unbracketed.match(/:/g) ?? []).length === 1 ? /^(.+):(\d+)$/.exec(unbracketed) : null;
    const name = bracketed?.[1] ?? withPort?.[1] ?? unbracketed;
    const entryPort = Number(bracketed?.[2] ?? withPort?.[2] ?? 0);
    if (entryPort && entryPort !== port) continue;
    if (name === '*') return true;
    const wildcard = entry.startsWith('*');
    const suffix = name
      .replace(/^\*?\./, '')
      .replace(/(.)\.$/, '$1')
      .toLowerCase();
    if (!wildcard && host === suffix) return true;
    if (host.endsWith(`.${suffix}`)) return true;
  }
  return false;
}
