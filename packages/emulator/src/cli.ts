/** `sauce-emulator [--host 127.0.0.1] [--port 4545] [--seed FILE.json] [--job-duration-ms N] [--rate-limit N] [--data-dir DIR] [--tls-key FILE --tls-cert FILE]` */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import emulatorPackage from '../package.json' with { type: 'json' };
import { startEmulator } from './index.ts';

const USAGE =
  'usage: sauce-emulator [--host 127.0.0.1] [--port 4545] [--seed FILE.json] [--job-duration-ms N] [--rate-limit N] [--data-dir DIR] [--tls-key FILE --tls-cert FILE]';

const HELP = `${USAGE}
       sauce-emulator --help | --version

A local, stateful stand-in for Sauce Labs AI test authoring, mobile app distribution and automation
REST, all on one address. When it is ready it prints one line to standard output,
"sauce-emulator listening on http://HOST:PORT"; SIGINT or SIGTERM (Ctrl-C) closes it.

Options:
  --host HOST            address to listen on. Default: 127.0.0.1 (the admin endpoints answer
                         loopback clients only).
  --port N               port to listen on; 0 picks a free one. Default: 4545.
  --seed FILE.json       accounts, suites, tunnels and builds to start from, instead of the default
                         seed: username demo, access key demo-access-key; email demo@example.com,
                         API key demo-api-key; suites Smoke and Regression; tunnel demo-tunnel.
  --job-duration-ms N    how long a simulated job runs, from queued to its end. Default: 3000.
  --rate-limit N         requests a second allowed per account; every answer then carries
                         X-Ratelimit-Limit, X-Ratelimit-Remaining and X-Ratelimit-Reset, and one
                         over the limit is 429 with Retry-After. Default: 0, no limit.
  --data-dir DIR         keeps the state and stored files in DIR across restarts. Default: in
                         memory only.
  --tls-key FILE         serves https with this private key (PEM); needs --tls-cert. Clients must
  --tls-cert FILE        trust the certificate (NODE_EXTRA_CA_CERTS for Node). Default: http.
  --help, -h             shows this help.
  --version              prints the version.

Admin endpoints (no credentials; loopback only): GET /_emulator/health, POST and DELETE
/_emulator/faults, GET /_emulator/requests, POST /_emulator/reset, POST and DELETE
/_emulator/outcomes, PATCH /_emulator/builds/:id.
POST /_emulator/outcomes {"testCase": "NAME or ID", "outcomes": ["failed", "passed", ...]} scripts
the next runs of an AI test case, in any build: each run of it (a case run, or a suite run that
includes it) uses one outcome, which every job of that run ends with; then it runs as seeded.
DELETE /_emulator/outcomes or a reset removes them.

Exit codes: 0 closed on a signal; 1 it could not start or close; 2 a mistaken option.`;

function nonNegativeInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    console.error(`sauce-emulator: --${name} must be a whole number of 0 or more, got "${value}"\n${USAGE}`);
    process.exit(2);
  }
  return Number(value);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      'job-duration-ms': { type: 'string' },
      'rate-limit': { type: 'string' },
      'data-dir': { type: 'string' },
      'tls-key': { type: 'string' },
      'tls-cert': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`sauce-emulator: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
if (values.version) {
  console.log(`sauce-emulator ${emulatorPackage.version}`);
  process.exit(0);
}

const port = nonNegativeInteger('port', values.port);
const jobDurationMs = nonNegativeInteger('job-duration-ms', values['job-duration-ms']);
const rateLimit = nonNegativeInteger('rate-limit', values['rate-limit']);
if ((values['tls-key'] === undefined) !== (values['tls-cert'] === undefined)) {
  console.error(`sauce-emulator: --tls-key and --tls-cert go together (PEM files)\n${USAGE}`);
  process.exit(2);
}

try {
  const tls =
    values['tls-key'] !== undefined && values['tls-cert'] !== undefined
      ? { key: await readFile(values['tls-key']), cert: await readFile(values['tls-cert']) }
      : undefined;
  const emulator = await startEmulator({
    ...(values.host ? { host: values.host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(values.seed ? { seed: values.seed } : {}),
    ...(jobDurationMs !== undefined ? { jobDurationMs } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(tls ? { tls } : {}),
  });
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`sauce-emulator: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  // Caught before the line is printed: whoever reads it may stop the emulator at once.
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  console.log(`sauce-emulator listening on ${emulator.url}`);
} catch (error) {
  console.error(`sauce-emulator: ${(error as Error).message}`);
  process.exit(1);
}
