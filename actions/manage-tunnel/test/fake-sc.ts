/**
 * A stand-in for Sauce Connect 5 in tests: `sc run --username U --region R --tunnel-name N
 * --api-address HOST:PORT [--tunnel-pool] ...`. It serves `/readyz` and `/info` (its tunnel's id
 * and name, as Sauce Connect 5's API server does), registers its tunnel with the emulator through
 * the admin endpoint (outside a pool, the service then shuts down the running tunnels of the
 * name, as it does for Sauce Connect), and marks it terminated on SIGINT. Its environment steers it:
 *
 * - FAKE_SC_EMULATOR: the emulator's address (required);
 * - FAKE_SC_MODE: `good` (default), `never-ready` (answers 503, registers nothing), `no-info`
 *   (answers 404 at `/info`, as a Sauce Connect without that page would);
 * - FAKE_SC_FAILURES and FAKE_SC_COUNTER: the first N launches (counted in that file) exit 1;
 * - FAKE_SC_PIDS: a folder where every launch leaves a file named after its pid;
 * - FAKE_SC_MEET_DIR and FAKE_SC_MEET: launches that meet in that folder, for starts racing for a
 *   name: each registers its tunnel once FAKE_SC_MEET launches have started, and answers ready
 *   (`/readyz`, `/info`) once as many have registered, so that every start sees the service as
 *   the last registration left it.
 */
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';

const SCRIPT = String.raw`
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const env = process.env;
if (env.FAKE_SC_PIDS) fs.writeFileSync(path.join(env.FAKE_SC_PIDS, String(process.pid)), '');
console.log('fake sc: args ' + JSON.stringify(args));
console.log('fake sc: access key from the environment: ' + (env.SAUCE_ACCESS_KEY ? 'yes' : 'no'));
console.log('fake sc: inputs in the environment: ' + Object.keys(env).filter((k) => k.startsWith('INPUT_')).length);

let launches = 1;
if (env.FAKE_SC_COUNTER) {
  launches = (fs.existsSync(env.FAKE_SC_COUNTER) ? Number(fs.readFileSync(env.FAKE_SC_COUNTER, 'utf8')) : 0) + 1;
  fs.writeFileSync(env.FAKE_SC_COUNTER, String(launches));
}
if (launches <= Number(env.FAKE_SC_FAILURES || 0)) {
  console.log('fake sc: fatal: could not reach the tunnel service (launch ' + launches + ')');
  process.exit(1);
}

const [, host, port] = /^(.*):(\d+)$/.exec(flag('--api-address'));
const admin = (method, route, body) =>
  fetch(env.FAKE_SC_EMULATOR + '/_emulator/' + route, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

let tunnel;
const server = http.createServer((req, res) => {
  if (req.url === '/info' && env.FAKE_SC_MODE === 'no-info') {
    res.statusCode = 404;
    res.end();
    return;
  }
  if (req.url === '/info' && tunnel) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ tunnel_id: tunnel.id, tunnel_name: tunnel.tunnel_identifier }));
    return;
  }
  res.statusCode = req.url === '/readyz' && tunnel ? 200 : 503;
  res.end();
});
/** Resolves once \`count\` files end with \`suffix\` in the meeting folder (at once without one). */
const meet = (suffix) =>
  new Promise((resolve) => {
    if (!env.FAKE_SC_MEET_DIR) return resolve();
    fs.writeFileSync(path.join(env.FAKE_SC_MEET_DIR, process.pid + suffix), '');
    const met = () =>
      fs.readdirSync(env.FAKE_SC_MEET_DIR).filter((name) => name.endsWith(suffix)).length >= Number(env.FAKE_SC_MEET);
    if (met()) return resolve();
    const timer = setInterval(() => met() && (clearInterval(timer), resolve()), 20);
  });

server.listen(Number(port), host === 'localhost' || host === '' ? '127.0.0.1' : host, () => {
  console.log('fake sc: status server on ' + host + ':' + port);
  if (env.FAKE_SC_MODE === 'never-ready') return;
  setTimeout(async () => {
    await meet('.started');
    const registered = await admin('POST', 'tunnels', {
      owner: flag('--username'),
      tunnel_identifier: flag('--tunnel-name'),
      status: 'running',
      tunnel_pool: args.includes('--tunnel-pool'),
    });
    await meet('.registered');
    tunnel = registered;
    console.log('fake sc: Sauce Connect is up, tunnel ' + tunnel.id);
  }, 300);
});

process.on('SIGINT', async () => {
  console.log('fake sc: SIGINT, shutting down');
  if (tunnel) await admin('PATCH', 'tunnels/' + tunnel.id, { status: 'terminated' });
  server.close();
  process.exit(0);
});
`;

/** The stand-in's text, run by this Node (not whatever `node` is on PATH). */
export function fakeSauceConnectScript(): string {
  return `#!${process.execPath}\n${SCRIPT}`;
}

/** Writes the stand-in as `dir/sc`. */
export async function writeFakeSauceConnect(dir: string): Promise<string> {
  const file = path.join(dir, 'sc');
  await writeFile(file, fakeSauceConnectScript());
  await chmod(file, 0o755);
  return file;
}
