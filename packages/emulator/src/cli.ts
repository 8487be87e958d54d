/** `sauce-emulator [--host 127.0.0.1] [--port 4545] [--seed FILE.json] [--job-duration-ms N] [--rate-limit N] [--data-dir DIR] [--tls-key FILE --tls-cert FILE]` */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startEmulator } from './index.ts';

const USAGE =
  'usage: sauce-emulator [--host 127.0.0.1] [--port 4545] [--seed FILE.json] [--job-duration-ms N] [--rate-limit N] [--data-dir DIR] [--tls-key FILE --tls-cert FILE]';

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
    },
    strict: true,
  }));
} catch (error) {
  console.error(`sauce-emulator: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
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
